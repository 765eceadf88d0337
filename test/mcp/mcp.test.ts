import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKey, type ServerProcess, startServer } from '../cli/server-process.js';
import { McpProcess } from './mcp-client.js';

const ALL_TOOLS = [
  'ask',
  'create_action_item',
  'create_memory',
  'get_conversation',
  'list_action_items',
  'list_conversations',
  'list_memories',
  'search_conversations',
  'search_memories',
];

describe('keepsake mcp against a real server process', () => {
  let server: ServerProcess;
  let readOnlyKey: string;
  const open: McpProcess[] = [];
  const start = (key: string) => {
    const mcp = McpProcess.start({ KEEPSAKE_URL: server.url, KEEPSAKE_API_KEY: key });
    open.push(mcp);
    return mcp;
  };
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
    });

  before(async () => {
    server = await startServer();
    readOnlyKey = createKey(server, null);
  });
  after(async () => {
    await Promise.all(open.map((m) => m.close()));
    await server.stop();
  });

  test('initialize answers with the requested protocol version, the server info and the tools capability', async () => {
    const mcp = start(server.key);
    const answer = await mcp.initialize('2025-06-18');
    assert.equal(answer.result?.protocolVersion, '2025-06-18');
    assert.deepEqual(answer.result?.serverInfo, { name: 'keepsake', title: 'Keepsake', version: '0.1.0' });
    assert.deepEqual(answer.result?.capabilities, { tools: { listChanged: false } });
  });

  test('an older supported version is kept and an unknown one gets the newest', async () => {
    const mcp = start(server.key);
    assert.equal((await mcp.initialize('2024-11-05')).result?.protocolVersion, '2024-11-05');
    assert.equal(
      (await mcp.request('initialize', { protocolVersion: '1999-01-01' })).result?.protocolVersion,
      '2025-06-18',
    );
  });

  test('tools/list offers every tool to a key with all scopes', async () => {
    const mcp = start(server.key);
    await mcp.initialize();
    const tools = (await mcp.request('tools/list')).result?.tools as Array<{
      name: string;
      inputSchema: { type: string };
    }>;
    assert.deepEqual(tools.map((t) => t.name).sort(), ALL_TOOLS);
    assert.ok(
      tools.every((t) => t.inputSchema.type === 'object'),
      "tools.every((t) => t.inputSchema.type === 'object')",
    );
  });

  test('tools/list leaves out the write tools for a read-only key', async () => {
    const mcp = start(readOnlyKey);
    await mcp.initialize();
    const tools = (await mcp.request('tools/list')).result?.tools as Array<{ name: string }>;
    assert.deepEqual(
      tools.map((t) => t.name).sort(),
      ALL_TOOLS.filter((n) => !n.startsWith('create_')),
    );
  });

  test('create_memory stores a memory the API then returns', async () => {
    const mcp = start(server.key);
    await mcp.initialize();
    const { result, text } = await mcp.callTool('create_memory', {
      content: 'Keeps bees on the roof',
      category: 'hobbies',
    });
    assert.equal(result?.isError, false, text);
    const created = JSON.parse(text) as { id: string };
    const memories = (await (await api('/v1/dev/user/memories')).json()) as Array<{ id: string; content: string }>;
    assert.equal(memories.find((m) => m.id === created.id)?.content, 'Keeps bees on the roof');
  });

  test('create_action_item stores an action item with its due date', async () => {
    const mcp = start(server.key);
    await mcp.initialize();
    const { text } = await mcp.callTool('create_action_item', {
      description: 'Order more jars',
      due_at: '2031-01-02T10:00:00Z',
    });
    const created = JSON.parse(text) as { id: string };
    const items = (await (await api('/v1/dev/user/action-items')).json()) as Array<{ id: string; due_at: string }>;
    assert.equal(items.find((i) => i.id === created.id)?.due_at, '2031-01-02T10:00:00.000Z');
  });

  test('search_conversations finds a conversation and get_conversation returns its transcript', async () => {
    const body = {
      transcript_segments: [
        { text: 'The beekeeping association meets on Tuesday evenings.', start: 0, end: 4, is_user: true },
        {
          text: 'Bring your smoker and the honey extractor to the beekeeping meeting.',
          start: 4,
          end: 9,
          speaker: 'SPEAKER_01',
        },
      ],
    };
    const created = (await (
      await api('/v1/dev/user/conversations/from-segments', { method: 'POST', body: JSON.stringify(body) })
    ).json()) as { id: string };
    const mcp = start(readOnlyKey);
    await mcp.initialize();
    const search = await mcp.callTool('search_conversations', { query: 'beekeeping' });
    assert.ok(
      (JSON.parse(search.text) as Array<{ id: string }>).some((c) => c.id === created.id),
      search.text,
    );
    const read = await mcp.callTool('get_conversation', { conversation_id: created.id });
    const conversation = JSON.parse(read.text) as { transcript_segments: Array<{ text: string }> };
    assert.equal(conversation.transcript_segments[1].text, body.transcript_segments[1].text);
  });

  test('search_memories and list_memories read what is stored', async () => {
    await api('/v1/dev/user/memories', {
      method: 'POST',
      body: JSON.stringify({ content: 'Speaks fluent Portuguese' }),
    });
    const mcp = start(readOnlyKey);
    await mcp.initialize();
    const found = await mcp.callTool('search_memories', { query: 'Portuguese' });
    assert.match(found.text, /Speaks fluent Portuguese/);
    const listed = await mcp.callTool('list_memories', { limit: 100 });
    assert.match(listed.text, /Speaks fluent Portuguese/);
  });

  test('a write tool called with a read-only key is a tool error and stores nothing', async () => {
    const mcp = start(readOnlyKey);
    await mcp.initialize();
    const { result, text } = await mcp.callTool('create_memory', { content: 'Must not be stored' });
    assert.equal(result?.isError, true);
    assert.match(text, /memories:write/);
    const memories = (await (await api('/v1/dev/user/memories?limit=1000')).json()) as Array<{ content: string }>;
    assert.equal(
      memories.some((m) => m.content === 'Must not be stored'),
      false,
    );
  });

  test('missing arguments are a tool error naming the field', async () => {
    const mcp = start(server.key);
    await mcp.initialize();
    const { result, text } = await mcp.callTool('create_memory', {});
    assert.equal(result?.isError, true);
    assert.match(text, /content/);
  });

  test('an API error (unknown conversation) comes back as a tool error', async () => {
    const mcp = start(server.key);
    await mcp.initialize();
    const { result, text } = await mcp.callTool('get_conversation', { conversation_id: 'does-not-exist' });
    assert.equal(result?.isError, true);
    assert.match(text, /Conversation not found/);
  });

  test('an unknown tool is a JSON-RPC invalid-params error', async () => {
    const mcp = start(server.key);
    await mcp.initialize();
    const { answer } = await mcp.callTool('delete_everything', {});
    assert.equal(answer.error?.code, -32602);
  });

  test('unknown methods and malformed lines get JSON-RPC errors', async () => {
    const mcp = start(server.key);
    await mcp.initialize();
    assert.equal((await mcp.request('resources/list')).error?.code, -32601);
    assert.equal((await mcp.sendRaw('{not json', null)).error?.code, -32700);
    assert.deepEqual((await mcp.request('ping')).result, {});
  });

  test('an invalid key stops the server before it serves, with exit code 3', async () => {
    const mcp = start(`omi_dev_${'f'.repeat(32)}`);
    assert.equal(await mcp.exited, 3);
    assert.match(mcp.stderr, /Invalid API Key/);
  });
});
