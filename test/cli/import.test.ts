import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { ImportService } from '../../src/domain/export/import.js';
import type { TypedApp } from '../../src/http/typed-app.js';
import { ImportsRepository } from '../../src/store/repositories/imports.js';
import { createTestApp, createUser, dialects, type TestUser } from '../helpers/app.js';
import { BIN, startServer } from './server-process.js';

type Json = Record<string, unknown>;

/** A user's data through the API: a folder, two conversations, memories, an action item, a goal with history. */
async function seed(app: TypedApp, user: TestUser): Promise<void> {
  const call = async (method: 'POST' | 'PATCH', url: string, payload: Json) => {
    const res = await app.inject({ method, url, headers: user.auth, payload });
    assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
    return res.json() as Json;
  };
  const folder = await call('POST', '/v1/dev/user/folders', { name: 'Work' });
  const first = await call('POST', '/v1/dev/user/conversations/from-segments', {
    transcript_segments: [
      {
        text: 'We agreed to ship the garden planner on Friday.',
        speaker: 'SPEAKER_00',
        speaker_id: 0,
        is_user: true,
        start: 0,
        end: 4,
      },
      {
        text: 'I will send Maria the budget tomorrow morning.',
        speaker: 'SPEAKER_01',
        speaker_id: 1,
        is_user: false,
        start: 4,
        end: 9,
      },
    ],
  });
  await call('PATCH', `/v1/dev/user/conversations/${first.id}/folder`, { folder_id: folder.id });
  await call('POST', '/v1/dev/user/conversations', { text: 'I love hiking in the Alps every summer with my sister.' });
  await call('POST', '/v1/dev/user/memories', { content: 'Prefers tea to coffee', category: 'manual' });
  await call('POST', '/v1/dev/user/action-items', {
    description: 'Renew the passport',
    due_at: '2026-12-01T10:00:00Z',
  });
  const goal = await call('POST', '/v1/dev/user/goals', { title: 'Read books', target_value: 12, current_value: 1 });
  await call('PATCH', `/v1/dev/user/goals/${goal.id}/progress`, { current_value: 3 });
}

/** The export as parsed lines (GET /v1/dev/user/export). */
async function exportOf(app: TypedApp, user: TestUser): Promise<Json[]> {
  const res = await app.inject({ method: 'GET', url: '/v1/dev/user/export', headers: user.auth });
  assert.equal(res.statusCode, 200);
  return res.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Json);
}

/** What must survive a round trip: everything but ids (mapped here) and the owner-specific header. */
function comparable(lines: Json[]): Json[] {
  return lines
    .filter((l) => l.type !== 'export')
    .map((l) => {
      const { id: _id, conversation_id: _c, folder_id: _f, ...rest } = l;
      if (Array.isArray(rest.transcript_segments))
        rest.transcript_segments = rest.transcript_segments.map(({ id: _s, ...segment }: Json) => segment);
      if (rest.structured && typeof rest.structured === 'object') {
        const structured = rest.structured as Json;
        rest.structured = { ...structured, action_items: (structured.action_items as Json[]).length };
      }
      return rest;
    });
}

for (const dialect of dialects()) {
  describe(`import of an export (${dialect})`, () => {
    test('round trip into another account restores every record; a rerun imports nothing twice', async () => {
      const t = await createTestApp(dialect);
      try {
        const ada = await createUser(t.ctx, { name: 'Ada' });
        // The same name: the user's own segments show it.
        const bob = await createUser(t.ctx, { name: 'Ada' });
        await seed(t.app, ada);
        const source = await exportOf(t.app, ada);
        const service = new ImportService(
          new ImportsRepository(t.ctx.store.db, t.ctx.repos.conversations),
          t.ctx.clock,
        );
        // Interrupted after three records, then run again from the start: it resumes.
        for (const record of source.slice(1, 4)) await service.importRecord(bob.uid, record);
        const outcomes = [];
        for (const record of source) outcomes.push(await service.importRecord(bob.uid, record));
        assert.equal(outcomes.filter((o) => o === 'skipped').length, 3);
        const restored = await exportOf(t.app, bob);
        assert.deepEqual(comparable(restored), comparable(source));
        // Ada's ids are hers; Bob's copies got ids of their own, and the links between them hold.
        const bobConversation = restored.find((l) => l.type === 'conversation' && l.folder_id !== null);
        const bobFolder = restored.find((l) => l.type === 'folder');
        assert.ok(bobConversation && bobFolder, 'bobConversation && bobFolder');
        assert.equal(bobConversation.folder_id, bobFolder.id);
        assert.ok(!source.some((l) => l.id === bobFolder.id), '!source.some((l) => l.id === bobFolder.id)');
        const again = [];
        for (const record of source) again.push(await service.importRecord(bob.uid, record));
        assert.ok(
          again.every((o) => o !== 'imported'),
          "again.every((o) => o !== 'imported')",
        );
        assert.deepEqual(comparable(await exportOf(t.app, bob)), comparable(source));
        // Full-text search finds what was imported.
        const found = await t.app.inject({
          method: 'GET',
          url: '/v1/dev/user/memories/search?q=tea',
          headers: bob.auth,
        });
        assert.equal(found.statusCode, 200);
        assert.match(found.body, /Prefers tea/);
      } finally {
        await t.close();
      }
    });
  });
}

function run(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      const code = err ? Number((err as { code?: unknown }).code ?? 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('keepsake import as a command', () => {
  const dirs: string[] = [];
  const target = () => {
    const dir = mkdtempSync(join(tmpdir(), 'keepsake-import-'));
    dirs.push(dir);
    return { DATA_DIR: dir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' };
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('--from a second Keepsake server and an export FILE; reruns find everything already here', async () => {
    const server = await startServer();
    try {
      const headers = { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' };
      for (const text of [
        'Call the dentist on Monday about the crown.',
        'Our team picked Lisbon for the offsite in May.',
      ]) {
        const res = await fetch(`${server.url}/v1/dev/user/conversations`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ text }),
        });
        assert.equal(res.status, 200);
      }
      await fetch(`${server.url}/v1/dev/user/memories`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ content: 'Allergic to peanuts', category: 'manual' }),
      });

      const env = target();
      assert.equal((await run(env, ['admin', 'user', 'create', '--name', 'Me'])).code, 0);
      const pulled = await run(env, ['import', '--from', server.url, '--key', server.key]);
      assert.equal(pulled.code, 0, pulled.stderr);
      const summary = JSON.parse(pulled.stdout);
      assert.equal(summary.complete, true);
      assert.equal(summary.counts.conversation.imported, 2);
      assert.equal(summary.counts.memory.imported >= 1, true);
      assert.match(pulled.stderr, /import: conversation: 2 imported/);
      const db = new Database(join(env.DATA_DIR, 'keepsake.db'), { readonly: true });
      const titles = db.prepare('select title from conversations').all() as Array<{ title: string }>;
      const memories = db.prepare('select content from memories').all() as Array<{ content: string }>;
      db.close();
      assert.equal(titles.length, 2);
      assert.ok(
        memories.some((m) => m.content === 'Allergic to peanuts'),
        "memories.some((m) => m.content === 'Allergic to peanuts')",
      );
      const rerun = await run(env, ['import', '--from', server.url, '--key', server.key]);
      assert.equal(JSON.parse(rerun.stdout).counts.conversation.skipped, 2);
      assert.equal(JSON.parse(rerun.stdout).counts.conversation.imported, 0);

      const file = join(env.DATA_DIR, 'export.ndjson');
      const exported = await fetch(`${server.url}/v1/dev/user/export`, { headers });
      writeFileSync(file, await exported.text());
      const fresh = target();
      assert.equal((await run(fresh, ['admin', 'user', 'create', '--name', 'Me'])).code, 0);
      const restored = await run(fresh, ['import', file]);
      assert.equal(restored.code, 0, restored.stderr);
      assert.equal(JSON.parse(restored.stdout).counts.conversation.imported, 2);

      const refused = await run(env, [
        'import',
        '--from',
        server.url,
        '--key',
        'omi_dev_00000000000000000000000000000000',
      ]);
      assert.equal(refused.code, 1);
      const notExport = join(env.DATA_DIR, 'bad.ndjson');
      writeFileSync(notExport, '{"hello":1}\n');
      const bad = await run(fresh, ['import', notExport]);
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /is not a Keepsake export/);
      assert.equal((await run(fresh, ['import'])).code, 2);
    } finally {
      await server.stop();
    }
  });
});
