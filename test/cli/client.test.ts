import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { keepsake } from './run.js';
import { createKey, type ServerProcess, startServer } from './server-process.js';

const STORY =
  'Yesterday I met Maria at the bakery on Elm Street. We agreed that I will send her the quarterly budget spreadsheet by Friday. She told me about her marathon training and her new running shoes.';

describe('keepsake API client against a real server process', () => {
  let server: ServerProcess;
  let env: NodeJS.ProcessEnv;
  const work = mkdtempSync(join(tmpdir(), 'keepsake-cli-'));

  before(async () => {
    // A tight export limit so the rate-limit exit code can be observed on a key of its own.
    server = await startServer({ RATE_LIMITS: 'dev:export=1/3600' });
    env = { KEEPSAKE_URL: server.url, KEEPSAKE_API_KEY: server.key };
  });
  after(() => server.stop());

  const json = async (args: string[], input?: string) => {
    const result = await keepsake(env, [...args, '--json'], input);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout);
  };

  test('conversations create, list, get, update and delete round-trip', async () => {
    const created = await json(['conversations', 'create', '--text', STORY]);
    assert.equal(created.status, 'completed');
    const table = await keepsake(env, ['conversations', 'list']);
    assert.equal(table.code, 0);
    assert.match(table.stdout, /^ID\s+STARTED\s+CATEGORY\s+TITLE/m);
    assert.match(table.stdout, new RegExp(created.id));
    const renamed = await json(['conversations', 'update', created.id, '--title', 'Bakery with Maria']);
    assert.equal(renamed.structured.title, 'Bakery with Maria');
    const detail = await keepsake(env, ['conversations', 'get', created.id]);
    assert.match(detail.stdout, /title:\s+\S+ Bakery with Maria/);
    const deleted = await keepsake(env, ['conversations', 'delete', created.id]);
    assert.equal(deleted.code, 0);
    const gone = await keepsake(env, ['conversations', 'get', created.id]);
    assert.equal(gone.code, 4);
    assert.match(gone.stderr, /Conversation not found/);
  });

  test('conversations create reads the text from standard input with --text -', async () => {
    const created = await json(['conversations', 'create', '--text', '-'], STORY);
    const found = await json(['conversations', 'list', '--search', 'marathon']);
    assert.ok(
      found.some((c: { id: string }) => c.id === created.id),
      'found.some((c: { id: string }) => c.id === created.id)',
    );
  });

  test('memories create, update, list and delete', async () => {
    const memory = await json([
      'memories',
      'create',
      '--content',
      'Prefers green tea',
      '--category',
      'lifestyle',
      '--tags',
      'tea,drinks',
    ]);
    assert.deepEqual(
      [memory.content, memory.category, memory.tags],
      ['Prefers green tea', 'lifestyle', ['tea', 'drinks']],
    );
    const updated = await json(['memories', 'update', memory.id, '--content', 'Prefers oolong tea']);
    assert.equal(updated.content, 'Prefers oolong tea');
    const listed = await json(['memories', 'list']);
    assert.equal(listed.find((m: { id: string }) => m.id === memory.id)?.content, 'Prefers oolong tea');
    assert.equal((await keepsake(env, ['memories', 'delete', memory.id])).code, 0);
    const after = await json(['memories', 'list']);
    assert.equal(
      after.some((m: { id: string }) => m.id === memory.id),
      false,
    );
  });

  test('action-items create with a due date, complete and delete', async () => {
    const item = await json([
      'action-items',
      'create',
      '--description',
      'Renew the passport',
      '--due',
      '2031-05-01T09:00:00Z',
    ]);
    assert.equal(item.due_at, '2031-05-01T09:00:00.000Z');
    const done = await json(['action-items', 'complete', item.id]);
    assert.equal(done.completed, true);
    const open = await json(['action-items', 'list', '--completed', 'false']);
    assert.equal(
      open.some((a: { id: string }) => a.id === item.id),
      false,
    );
    const reopened = await json(['action-items', 'complete', item.id, '--undo']);
    assert.equal(reopened.completed, false);
    assert.equal((await keepsake(env, ['action-items', 'delete', item.id])).code, 0);
  });

  test('goals create, record progress, get, list and delete', async () => {
    const goal = await json([
      'goals',
      'create',
      '--title',
      'Read books',
      '--target',
      '12',
      '--unit',
      'books',
      '--type',
      'numeric',
    ]);
    const progressed = await json(['goals', 'progress', goal.id, '--value', '3']);
    assert.equal(progressed.current_value, 3);
    const table = await keepsake(env, ['goals', 'get', goal.id]);
    assert.match(table.stdout, /3\/12 books/);
    const listed = await json(['goals', 'list']);
    assert.ok(
      listed.some((g: { id: string }) => g.id === goal.id),
      'listed.some((g: { id: string }) => g.id === goal.id)',
    );
    assert.equal((await keepsake(env, ['goals', 'delete', goal.id])).code, 0);
  });

  test('export writes NDJSON to a file and reports progress on stderr', async () => {
    await json(['memories', 'create', '--content', 'Plays the cello']);
    const file = join(work, 'export.ndjson');
    const result = await keepsake(env, ['export', '--output', file]);
    assert.equal(result.code, 0, result.stderr);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines[0].type, 'export');
    assert.equal(lines.at(-1).type, 'end');
    assert.ok(
      lines.some((l) => l.type === 'memory' && l.content === 'Plays the cello'),
      "lines.some((l) => l.type === 'memory' && l.content === 'Plays the cello')",
    );
    assert.match(result.stderr, /export complete: .*memory/);
    assert.equal(result.stdout, '');
  });

  test('a second export within the hour exits 5 and prints Retry-After', async () => {
    const limited = { ...env, KEEPSAKE_API_KEY: createKey(server, null) };
    assert.equal((await keepsake(limited, ['export', '--output', join(work, 'a.ndjson')])).code, 0);
    const second = await keepsake(limited, ['export', '--output', join(work, 'b.ndjson')]);
    assert.equal(second.code, 5);
    assert.match(second.stderr, /retry after \d+ s/);
  });

  test('an unknown key exits 3', async () => {
    const result = await keepsake({ ...env, KEEPSAKE_API_KEY: `omi_dev_${'0'.repeat(32)}` }, ['memories', 'list']);
    assert.equal(result.code, 3);
    assert.match(result.stderr, /Invalid API Key/);
  });

  test('a read-only key that writes exits 3 with the missing scope', async () => {
    const readOnly = { ...env, KEEPSAKE_API_KEY: createKey(server, null) };
    const result = await keepsake(readOnly, ['memories', 'create', '--content', 'Should not be stored']);
    assert.equal(result.code, 3);
    assert.match(result.stderr, /Required scope: memories:write/);
  });

  test('usage errors exit 2 with one line on stderr that names the mistake and where help is', async () => {
    const unknown = await keepsake(env, ['memories', 'frobnicate']);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stdout, '');
    assert.equal(unknown.stderr.trim().split('\n').length, 1, unknown.stderr);
    assert.match(unknown.stderr, /unknown command "memories frobnicate" \(.*list.*\)/);
    assert.match(unknown.stderr, /keepsake memories --help/);
    const badFlag = await keepsake(env, ['goals', 'list', '--limit', 'many']);
    assert.equal(badFlag.code, 2);
  });

  test('--help on a command group prints its commands to stdout and exits 0, without a key', async () => {
    const help = await keepsake({}, ['action-items', 'create', '--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /action-items complete ID \[--undo\]/);
    assert.doesNotMatch(help.stdout, /memories list/);
    assert.equal(help.stderr, '');
    assert.match((await keepsake({}, ['export', '-h'])).stdout, /export \[--output FILE\]/);
  });

  test('input the server rejects (422) exits 2 with its message', async () => {
    const result = await keepsake(env, ['memories', 'create', '--content', 'x', '--category', 'nonsense']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /HTTP 422/);
  });

  test('a profile file supplies the URL and key when the environment does not', async () => {
    const profile = join(work, 'profile.json');
    writeFileSync(profile, JSON.stringify({ url: server.url, api_key: server.key }));
    const result = await keepsake({ KEEPSAKE_PROFILE: profile }, ['goals', 'list', '--json']);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(Array.isArray(JSON.parse(result.stdout)), 'Array.isArray(JSON.parse(result.stdout))');
  });

  test('without any key the client exits 3 and says where to put one', async () => {
    const result = await keepsake({ KEEPSAKE_URL: server.url }, ['memories', 'list']);
    assert.equal(result.code, 3);
    assert.match(result.stderr, /KEEPSAKE_API_KEY/);
  });

  test('an unreachable server exits 1', async () => {
    const result = await keepsake({ KEEPSAKE_URL: 'http://127.0.0.1:9', KEEPSAKE_API_KEY: server.key }, [
      'memories',
      'list',
    ]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /cannot reach/);
  });
});
