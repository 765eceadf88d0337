import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTestApp, createUser, dialects, type TestUser } from '../helpers/app.js';
import { appWithTwoUsers } from '../helpers/suite.js';
import { invalid } from '../helpers/validation.js';

const MEETING =
  'Tomorrow I need to send the quarterly budget report to Maria before the finance review. ' +
  'We discussed the marketing spend for the product launch and agreed to cut travel costs by ten percent. ' +
  'Maria will check the invoices from the supplier and I will book the meeting room for Thursday.';

interface Page {
  id: string;
  created_at: string;
  structured: { title: string; overview: string; category: string; emoji: string; action_items: unknown[] };
  transcript_segments: null | Array<{ speaker_name: string; text: string; start: number; is_user: boolean }>;
  folder_id: string | null;
  folder_name: string | null;
}

for (const dialect of dialects()) {
  describe(`developer conversations API (${dialect})`, () => {
    const { t, ada, bob } = appWithTwoUsers(dialect);

    const post = (user: TestUser, url: string, payload: unknown) =>
      t.app.inject({ method: 'POST', url, headers: user.auth, payload: payload as object });
    const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.auth });

    test('create from text answers {id, status, discarded} with a generated summary', async () => {
      const res = await post(ada, '/v1/dev/user/conversations', { text: MEETING });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), ['discarded', 'id', 'status']);
      assert.equal(body.status, 'completed');
      assert.equal(body.discarded, false);
      const read = (await get(ada, `/v1/dev/user/conversations/${body.id}`)).json();
      assert.notEqual(read.structured.title, '');
      assert.ok(read.structured.title.split(/\s+/).length <= 10, read.structured.title);
      assert.notEqual(read.structured.overview, '');
      assert.equal(read.transcript_segments, null);
      assert.equal(read.source, 'external_integration');
      assert.equal(read.language, 'en');
      // SPEC §4.2: finished_at defaults to started_at + 5 minutes.
      assert.equal(Date.parse(read.finished_at) - Date.parse(read.started_at), 300_000);
    });

    test('text create does not store the text as transcript segments', async () => {
      const { id } = (await post(ada, '/v1/dev/user/conversations', { text: MEETING })).json();
      const read = (await get(ada, `/v1/dev/user/conversations/${id}?include_transcript=true`)).json();
      assert.deepEqual(read.transcript_segments, []);
    });

    test('filler-only text is discarded and hidden from the list', async () => {
      const res = await post(ada, '/v1/dev/user/conversations', { text: 'um uh yeah yeah hmm okay' });
      assert.equal(res.statusCode, 200);
      const { id, discarded } = res.json();
      assert.equal(discarded, true);
      const list: Page[] = (await get(ada, '/v1/dev/user/conversations?limit=1000')).json();
      assert.ok(!list.some((c) => c.id === id), '!list.some((c) => c.id === id)');
      // The single read still returns it (research/omi-rest.md §2.1).
      assert.equal((await get(ada, `/v1/dev/user/conversations/${id}`)).statusCode, 200);
    });

    test('whitespace-only text → 422 text cannot be empty', async () => {
      const res = await post(ada, '/v1/dev/user/conversations', { text: '   \n ' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), invalid(['body', 'text'], 'text cannot be empty'));
    });

    test('text over 100,000 characters → 422 validation error on body.text', async () => {
      const res = await post(ada, '/v1/dev/user/conversations', { text: 'a'.repeat(100_001) });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().detail[0].loc, ['body', 'text']);
    });

    test('finished_at before started_at → 422', async () => {
      const res = await post(ada, '/v1/dev/user/conversations', {
        text: MEETING,
        started_at: '2026-01-02T10:00:00Z',
        finished_at: '2026-01-02T09:00:00Z',
      });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), invalid(['body', 'finished_at'], 'finished_at must be after started_at'));
    });

    test('from-segments stores segments and resolves speaker names', async () => {
      const res = await post(ada, '/v1/dev/user/conversations/from-segments', {
        started_at: '2026-03-01T10:00:00Z',
        transcript_segments: [
          { text: 'I will send the contract to the lawyer tomorrow morning.', start: 0, end: 4, is_user: true },
          {
            text: 'Great, and please call the bank about the mortgage rate.',
            start: 4.5,
            end: 9,
            speaker: 'SPEAKER_01',
          },
        ],
      });
      assert.equal(res.statusCode, 200);
      const { id } = res.json();
      const read = (await get(ada, `/v1/dev/user/conversations/${id}?include_transcript=true`)).json();
      assert.equal(read.transcript_segments.length, 2);
      assert.equal(read.transcript_segments[0].speaker_name, 'Ada');
      assert.equal(read.transcript_segments[1].speaker_name, 'Speaker 1');
      assert.equal(read.transcript_segments[1].speaker_id, 1);
      assert.equal(read.transcript_segments[0].speaker, 'SPEAKER_00');
      // DESIGN §7: finished_at = started_at + the largest segment end.
      assert.equal(read.finished_at, '2026-03-01T10:00:09.000Z');
    });

    test('from-segments validates each segment in order with the reference details', async () => {
      const cases: Array<[unknown[], string, Array<string | number>]> = [
        [[{ text: 'ok fine', start: 2, end: 1 }], 'Segment 0: end time must be after start time', [0, 'end']],
        [
          [
            { text: 'a b', start: 0, end: 1 },
            { text: 'c', start: -1, end: 2 },
          ],
          'Segment 1: start time cannot be negative',
          [1, 'start'],
        ],
        [[{ text: '  ', start: 0, end: 1 }], 'Segment 0: text cannot be empty', [0, 'text']],
      ];
      for (const [segments, detail, at] of cases) {
        const res = await post(ada, '/v1/dev/user/conversations/from-segments', { transcript_segments: segments });
        assert.equal(res.statusCode, 422, detail);
        assert.deepEqual(res.json(), invalid(['body', 'transcript_segments', ...at], detail));
      }
    });

    test('from-segments limits: 0 and 501 segments → 422', async () => {
      const seg = { text: 'hello there', start: 0, end: 1 };
      for (const count of [0, 501]) {
        const res = await post(ada, '/v1/dev/user/conversations/from-segments', {
          transcript_segments: Array.from({ length: count }, () => seg),
        });
        assert.equal(res.statusCode, 422);
        assert.deepEqual(res.json().detail[0].loc, ['body', 'transcript_segments']);
      }
    });

    test('client_session_id makes from-segments idempotent', async () => {
      const payload = {
        client_session_id: 'device-42-session-7',
        transcript_segments: [{ text: 'Remind me to water the plants on Sunday.', start: 0, end: 3, is_user: true }],
      };
      const first = (await post(ada, '/v1/dev/user/conversations/from-segments', payload)).json();
      const second = (await post(ada, '/v1/dev/user/conversations/from-segments', payload)).json();
      assert.equal(second.id, first.id);
      // Another user with the same client id gets their own conversation.
      const other = (await post(bob, '/v1/dev/user/conversations/from-segments', payload)).json();
      assert.notEqual(other.id, first.id);
    });

    test('the retry id under its other names (client_conversation_id, session_id, client_id) dedupes too', async () => {
      const segments = [{ text: 'Pick up the bread from the bakery at noon.', start: 0, end: 2, is_user: true }];
      for (const field of ['client_conversation_id', 'session_id', 'client_id']) {
        const payload = { [field]: `retry-${field}`, transcript_segments: segments };
        const first = await post(ada, '/v1/dev/user/conversations/from-segments', payload);
        const second = await post(ada, '/v1/dev/user/conversations/from-segments', payload);
        assert.equal(first.statusCode, 200, first.body);
        assert.equal(second.json().id, first.json().id, field);
        // The same id under the primary name is the same retry.
        const primary = await post(ada, '/v1/dev/user/conversations/from-segments', {
          client_session_id: `retry-${field}`,
          transcript_segments: segments,
        });
        assert.equal(primary.json().id, first.json().id, field);
        const stored = await t.ctx.store.db
          .selectFrom('conversations')
          .select('id')
          .where('user_id', '=', ada.uid)
          .where('client_session_id', '=', `retry-${field}`)
          .execute();
        assert.equal(stored.length, 1, field);
      }
      const blank = await post(ada, '/v1/dev/user/conversations/from-segments', {
        session_id: '   ',
        transcript_segments: segments,
      });
      assert.deepEqual(
        [blank.statusCode, blank.json()],
        [422, invalid(['body', 'session_id'], 'session_id cannot be empty')],
      );
    });

    test('simultaneous retries with one client_session_id (one group commit on SQLite) store one conversation', async () => {
      const payload = {
        client_session_id: 'device-42-burst',
        transcript_segments: [{ text: 'Book the flights to Lisbon.', start: 0, end: 2, is_user: true }],
      };
      const others = Array.from({ length: 3 }, (_, i) => ({
        transcript_segments: [{ text: `Unrelated note ${i}.`, start: 0, end: 1 }],
      }));
      const responses = await Promise.all([
        post(ada, '/v1/dev/user/conversations/from-segments?wait=false', payload),
        post(ada, '/v1/dev/user/conversations/from-segments?wait=false', others[0]),
        post(ada, '/v1/dev/user/conversations/from-segments?wait=false', payload),
        post(ada, '/v1/dev/user/conversations/from-segments?wait=false', others[1]),
        post(ada, '/v1/dev/user/conversations/from-segments?wait=false', payload),
        post(ada, '/v1/dev/user/conversations/from-segments?wait=false', others[2]),
      ]);
      assert.deepEqual(
        responses.map((r) => r.statusCode),
        [200, 200, 200, 200, 200, 200],
      );
      const ids = responses.map((r) => r.json().id);
      assert.equal(ids[2], ids[0]);
      assert.equal(ids[4], ids[0]);
      assert.equal(new Set(ids).size, 4, 'the three other conversations are stored beside it');
      const stored = await t.ctx.store.db
        .selectFrom('conversations')
        .select(['id'])
        .where('client_session_id', '=', 'device-42-burst')
        .execute();
      assert.deepEqual(
        stored.map((r) => r.id),
        [ids[0]],
      );
      const segments = await t.ctx.store.db
        .selectFrom('transcript_segments')
        .select('conversation_id')
        .where('conversation_id', 'in', ids)
        .execute();
      assert.equal(segments.length, 4, 'one segment per stored conversation; the losers left none behind');
    });

    test('get, patch and delete of another user’s conversation → 404', async () => {
      const { id } = (await post(ada, '/v1/dev/user/conversations', { text: MEETING })).json();
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const res = await t.app.inject({
          method,
          url: `/v1/dev/user/conversations/${id}`,
          headers: bob.auth,
          ...(method === 'PATCH' ? { payload: { title: 'Stolen' } } : {}),
        });
        assert.equal(res.statusCode, 404, method);
        assert.deepEqual(res.json(), { detail: 'Conversation not found' });
      }
      const still = (await get(ada, `/v1/dev/user/conversations/${id}`)).json();
      assert.notEqual(still.structured.title, 'Stolen');
    });

    test('patch title trims and requires at least one field', async () => {
      const { id } = (await post(ada, '/v1/dev/user/conversations', { text: MEETING })).json();
      const empty = await t.app.inject({
        method: 'PATCH',
        url: `/v1/dev/user/conversations/${id}`,
        headers: ada.auth,
        payload: {},
      });
      assert.equal(empty.statusCode, 422);
      assert.deepEqual(empty.json(), invalid(['body'], 'At least one field (title or discarded) must be provided'));
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/v1/dev/user/conversations/${id}`,
        headers: ada.auth,
        payload: { title: '  Budget Sync  ' },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().structured.title, 'Budget Sync');
      const long = await t.app.inject({
        method: 'PATCH',
        url: `/v1/dev/user/conversations/${id}`,
        headers: ada.auth,
        payload: { title: 'x'.repeat(501) },
      });
      assert.equal(long.statusCode, 422);
    });

    test('discarded true hides; false restores and reprocesses', async () => {
      const { id } = (await post(ada, '/v1/dev/user/conversations', { text: MEETING })).json();
      const patch = (discarded: boolean) =>
        t.app.inject({
          method: 'PATCH',
          url: `/v1/dev/user/conversations/${id}`,
          headers: ada.auth,
          payload: { discarded },
        });
      assert.equal((await patch(true)).json().discarded, true);
      let ids = ((await get(ada, '/v1/dev/user/conversations?limit=1000')).json() as Page[]).map((c) => c.id);
      assert.ok(!ids.includes(id), '!ids.includes(id)');
      const restored = (await patch(false)).json();
      assert.equal(restored.discarded, false);
      assert.equal(restored.status, 'completed');
      ids = ((await get(ada, '/v1/dev/user/conversations?limit=1000')).json() as Page[]).map((c) => c.id);
      assert.ok(ids.includes(id), 'ids.includes(id)');
    });

    test('a restored filler conversation is kept by the user policy', async () => {
      const { id } = (await post(ada, '/v1/dev/user/conversations', { text: 'hmm yeah okay' })).json();
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/v1/dev/user/conversations/${id}`,
        headers: ada.auth,
        payload: { discarded: false },
      });
      assert.equal(res.json().discarded, false);
      const row = await t.ctx.repos.conversations.findById(ada.uid, id);
      assert.equal(JSON.parse(row?.relevance ?? '{}').reason, 'restored');
    });

    test('delete is permanent and removes segments, events and items', async () => {
      const { id } = (
        await post(ada, '/v1/dev/user/conversations/from-segments', {
          transcript_segments: [
            {
              text: 'I need to renew my passport next week before the trip to Japan.',
              start: 0,
              end: 5,
              is_user: true,
            },
          ],
        })
      ).json();
      await t.ctx.runner.drain();
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/dev/user/conversations/${id}`, headers: ada.auth });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { success: true });
      assert.equal((await get(ada, `/v1/dev/user/conversations/${id}`)).statusCode, 404);
      const segments = await t.ctx.repos.conversations.segmentsFor(ada.uid, [id]);
      assert.equal(segments.size, 0);
      const items = await t.ctx.repos.actionItems.forConversations(ada.uid, [id]);
      assert.equal(items.size, 0);
      const again = await t.app.inject({
        method: 'DELETE',
        url: `/v1/dev/user/conversations/${id}`,
        headers: ada.auth,
      });
      assert.equal(again.statusCode, 404);
    });

    test('extracted action items appear inline in structured.action_items', async () => {
      const { id } = (
        await post(ada, '/v1/dev/user/conversations/from-segments', {
          started_at: '2026-05-04T09:00:00Z',
          transcript_segments: [
            { text: 'I need to send the signed lease to the landlord by Friday.', start: 0, end: 4, is_user: true },
          ],
        })
      ).json();
      await t.ctx.runner.drain();
      const read = (await get(ada, `/v1/dev/user/conversations/${id}`)).json();
      assert.ok(read.structured.action_items.length >= 1, JSON.stringify(read.structured));
      assert.equal(read.structured.action_items[0].conversation_id, id);
      assert.match(read.structured.action_items[0].description, /lease/i);
    });
  });
}

describe('asynchronous create (wait=false)', () => {
  test('answers processing at once and the job finishes it', async () => {
    const t = await createTestApp('sqlite');
    try {
      const ada = await createUser(t.ctx);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/dev/user/conversations/from-segments?wait=false',
        headers: ada.auth,
        payload: {
          transcript_segments: [
            {
              text: 'I need to book the dentist appointment for next Tuesday afternoon.',
              start: 0,
              end: 4,
              is_user: true,
            },
          ],
        },
      });
      assert.equal(res.statusCode, 200);
      const { id, status } = res.json();
      assert.equal(status, 'processing');
      const listed = await t.app.inject({ method: 'GET', url: '/v1/dev/user/conversations', headers: ada.auth });
      assert.deepEqual(listed.json(), [], 'not listed before processing');
      await t.ctx.runner.drain();
      const read = (
        await t.app.inject({ method: 'GET', url: `/v1/dev/user/conversations/${id}`, headers: ada.auth })
      ).json();
      assert.equal(read.status, 'completed');
      assert.notEqual(read.structured.title, '');
    } finally {
      await t.close();
    }
  });
});
