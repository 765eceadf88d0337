import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKey, type ServerProcess, startServer } from '../cli/server-process.js';
import { McpProcess } from './mcp-client.js';

describe('the MCP ask tool against a real server process', () => {
  let server: ServerProcess;
  let conversationId: string;
  const open: McpProcess[] = [];
  const start = async (key: string) => {
    const mcp = McpProcess.start({ KEEPSAKE_URL: server.url, KEEPSAKE_API_KEY: key });
    open.push(mcp);
    await mcp.initialize();
    return mcp;
  };

  before(async () => {
    server = await startServer();
    const res = await fetch(`${server.url}/v1/dev/user/conversations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'The plumber said the boiler pressure valve must be replaced before winter.' }),
    });
    conversationId = ((await res.json()) as { id: string }).id;
  });
  after(async () => {
    await Promise.all(open.map((m) => m.close()));
    await server.stop();
  });

  test('answers with the conversation as a cited source, for a read-only key', async () => {
    const mcp = await start(createKey(server, null));
    const { result, text } = await mcp.callTool('ask', { question: 'What did the plumber say about the boiler?' });
    assert.equal(result?.isError, false, text);
    const body = JSON.parse(text) as { answer: string; sources: Array<{ id: string }> };
    assert.deepEqual(
      body.sources.map((s) => s.id),
      [conversationId],
    );
    assert.match(body.answer, /pressure valve must be replaced before winter\. \[1\]/);
  });

  test('is not offered to a key without conversations:read, and its arguments are checked', async () => {
    const memoriesOnly = await start(createKey(server, ['memories:read']));
    const tools = (await memoriesOnly.request('tools/list')).result?.tools as Array<{ name: string }>;
    assert.ok(!tools.some((t) => t.name === 'ask'), "!tools.some((t) => t.name === 'ask')");
    const mcp = await start(server.key);
    const listed = (await mcp.request('tools/list')).result?.tools as Array<{
      name: string;
      annotations: { readOnlyHint: boolean };
    }>;
    assert.equal(listed.find((t) => t.name === 'ask')?.annotations.readOnlyHint, true);
    const bad = await mcp.callTool('ask', { question: 'boiler?', limit: 50 });
    assert.ok(bad.result?.isError || bad.answer.error, JSON.stringify(bad.answer));
  });
});
