import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { keepsake } from './run.js';
import { type ServerProcess, startServer } from './server-process.js';

const STORY =
  'I met Maria at the bakery. We agreed that I will send her the quarterly budget spreadsheet by Friday. She is training for the Lisbon marathon in May.';

describe('keepsake ask against a real server process', () => {
  let server: ServerProcess;
  let env: NodeJS.ProcessEnv;
  let id: string;

  before(async () => {
    server = await startServer();
    env = { KEEPSAKE_URL: server.url, KEEPSAKE_API_KEY: server.key };
    const created = await keepsake(env, ['conversations', 'create', '--text', STORY, '--json']);
    assert.equal(created.code, 0, created.stderr);
    id = JSON.parse(created.stdout).id;
  });
  after(() => server.stop());

  test('prints the answer and its numbered sources', async () => {
    const result = await keepsake(env, ['ask', 'When', 'is', 'the', 'marathon?']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Lisbon marathon in May\. \[1\]/);
    assert.match(
      result.stdout,
      new RegExp(`Sources:\\n {2}\\[1\\] \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} {2}.+ {2}\\(${id}\\)`),
    );
  });

  test('--json gives the API answer; the question may come from standard input', async () => {
    const result = await keepsake(
      env,
      ['ask', '-', '--json', '--limit', '3', '--timezone', 'Europe/Lisbon'],
      'budget?',
    );
    assert.equal(result.code, 0, result.stderr);
    const body = JSON.parse(result.stdout);
    assert.deepEqual(
      body.sources.map((s: { id: string }) => s.id),
      [id],
    );
    assert.match(body.answer, /quarterly budget spreadsheet/);
  });

  test('usage errors: no question, a bad limit, an unknown timezone', async () => {
    const none = await keepsake(env, ['ask']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /a question is required/);
    const limit = await keepsake(env, ['ask', 'budget', '--limit', '11']);
    assert.equal(limit.code, 2);
    const zone = await keepsake(env, ['ask', 'budget', '--timezone', 'Mars/Olympus']);
    assert.notEqual(zone.code, 0);
    assert.match(zone.stderr, /not a valid IANA timezone/);
  });
});
