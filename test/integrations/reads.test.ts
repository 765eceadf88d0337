import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { enabledApp, type TestAppRecord } from './fixtures.js';

const SEGMENTS = [
  {
    text: 'Did you book the flights to Porto for the conference?',
    start: 0,
    end: 3.5,
    speaker: 'SPEAKER_00',
    is_user: true,
  },
  {
    text: 'Yes, we leave on the twelfth and I will send the hotel details tonight.',
    start: 3.5,
    end: 8,
    speaker: 'SPEAKER_01',
  },
];

interface IntegrationConversation {
  id: string;
  created_at: string;
  text: string;
  status: string;
  discarded: boolean;
  structured: { title: string; overview: string };
  transcript_segments: Array<{ text: string; start_time: number; end_time: number; is_user: boolean; speaker: string }>;
  geolocation: { latitude: number; longitude: number } | null;
}

for (const dialect of dialects()) {
  describe(`integration reads (${dialect})`, () => {
    let t: TestApp;
    let ada: TestUser;
    let bob: TestUser;
    let app: TestAppRecord;
    let segmentsId: string;
    let discardedId: string;

    before(async () => {
      t = await createTestApp(dialect);
      ada = await createUser(t.ctx, { name: 'Ada' });
      bob = await createUser(t.ctx, { name: 'Bob' });
      app = await enabledApp(t, ada);
      await t.ctx.integrations.apps.enable(bob.uid, app.appId);
      segmentsId = (
        await t.ctx.conversations.createFromSegments(ada.uid, {
          transcript_segments: SEGMENTS,
          geolocation: { latitude: 41.15, longitude: -8.61 },
        })
      ).id;
      const text = await t.ctx.conversations.createFromText(ada.uid, {
        text: 'I want to learn the piano this year and practise every morning before work.',
      });
      discardedId = text.id;
      await t.ctx.conversations.update(ada.uid, discardedId, { discarded: true });
      await t.ctx.conversations.createFromText(bob.uid, {
        text: 'Bob talked about his private diary plans for the summer.',
      });
      await t.ctx.integrations.integration.importMemories(app.appId, ada.uid, {
        memories: [{ content: 'Plays chess', tags: ['hobby'] }],
      });
      await t.ctx.integrations.integration.importMemories(app.appId, bob.uid, {
        memories: [{ content: 'Bob secret fact' }],
      });
    });
    after(() => t.close());

    const get = (path: string, uid = ada.uid) =>
      t.app.inject({
        method: 'GET',
        url: `/v2/integrations/${app.appId}/${path}${path.includes('?') ? '&' : '?'}uid=${uid}`,
        headers: app.bearer,
      });
    const conversations = async (query = '', uid = ada.uid) =>
      (await get(`conversations${query}`, uid)).json().conversations as IntegrationConversation[];

    test('conversations read in the shape of SPEC §2.3 with the full text and timed segments', async () => {
      const [found] = (await conversations()).filter((c) => c.id === segmentsId);
      assert.ok(found, 'found');
      assert.equal(found.text, SEGMENTS.map((s) => s.text).join('\n'));
      assert.deepEqual(
        found.transcript_segments.map((s) => [s.text, s.start_time, s.end_time, s.is_user]),
        SEGMENTS.map((s) => [s.text, s.start, s.end, s.is_user ?? false]),
      );
      assert.deepEqual(found.geolocation, { latitude: 41.15, longitude: -8.61 });
      assert.equal(typeof found.structured.title, 'string');
      assert.equal(typeof found.structured.overview, 'string');
      assert.match(found.created_at, /Z$/);
    });

    test('discarded conversations are hidden unless include_discarded=true', async () => {
      assert.ok(
        !(await conversations()).some((c) => c.id === discardedId),
        '!(await conversations()).some((c) => c.id === discardedId)',
      );
      assert.ok(
        (await conversations('?include_discarded=true')).some((c) => c.id === discardedId),
        "(await conversations('?include_discarded=true')).some((c) => c.id === discardedId)",
      );
      // Spelled as the reference's parser accepts booleans.
      for (const spelling of ['True', '1', 'yes', 'on'])
        assert.ok(
          (await conversations(`?include_discarded=${spelling}`)).some((c) => c.id === discardedId),
          spelling,
        );
      for (const spelling of ['False', '0', 'no', 'off'])
        assert.ok(!(await conversations(`?include_discarded=${spelling}`)).some((c) => c.id === discardedId), spelling);
    });

    test('statuses filters by status, comma-separated or repeated', async () => {
      assert.ok(
        (await conversations('?statuses=completed')).length >= 1,
        "(await conversations('?statuses=completed')).length >= 1",
      );
      assert.equal((await conversations('?statuses=in_progress,processing')).length, 0);
      assert.ok(
        (await conversations('?statuses=processing&statuses=completed')).length >= 1,
        "(await conversations('?statuses=processing&statuses=completed')).length >= 1",
      );
    });

    test('an unknown status → 422', async () => {
      const res = await get('conversations?statuses=finished');
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().detail[0].loc, ['query', 'statuses']);
    });

    test('limit and offset page through newest first', async () => {
      const all = await conversations('?include_discarded=true');
      const first = await conversations('?include_discarded=true&limit=1');
      const second = await conversations('?include_discarded=true&limit=1&offset=1');
      assert.deepEqual([first[0].id, second[0].id], [all[0].id, all[1].id]);
    });

    test('limit outside 1..1000 → 422', async () => {
      assert.equal((await get('conversations?limit=0')).statusCode, 422);
      assert.equal((await get('conversations?limit=1001')).statusCode, 422);
      assert.equal((await get('memories?limit=1001')).statusCode, 422);
    });

    test('max_transcript_segments cuts the segments of each conversation', async () => {
      const [found] = (await conversations('?max_transcript_segments=1')).filter((c) => c.id === segmentsId);
      assert.equal(found.transcript_segments.length, 1);
    });

    test('date filters take ISO datetimes or bare dates; anything else → 400 with the reference text', async () => {
      assert.equal((await conversations('?start_date=2999-01-01')).length, 0);
      assert.ok(
        (await conversations('?end_date=2999-01-01T00:00:00Z')).length >= 1,
        "(await conversations('?end_date=2999-01-01T00:00:00Z')).length >= 1",
      );
      const res = await get('conversations?start_date=yesterday');
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), {
        detail: 'Invalid start_date format. Use ISO format (YYYY-MM-DDTHH:MM:SS.sssZ) or YYYY-MM-DD',
      });
    });

    test("memories read in the shape of SPEC §2.4, only the named user's", async () => {
      const res = await get('memories');
      assert.equal(res.statusCode, 200);
      const memories = res.json().memories as Array<{
        id: string;
        content: string;
        created_at: string;
        tags: string[];
      }>;
      assert.deepEqual(
        memories.map((m) => [m.content, m.tags]),
        [['Plays chess', ['hobby']]],
      );
      assert.match(memories[0].created_at, /Z$/);
      assert.equal(typeof memories[0].id, 'string');
    });

    test("reading for one user never returns another user's conversations", async () => {
      const adas = await conversations('?include_discarded=true');
      const bobs = await conversations('?include_discarded=true', bob.uid);
      assert.ok(bobs.length >= 1, 'bobs.length >= 1');
      const adaIds = new Set(adas.map((c) => c.id));
      assert.ok(
        bobs.every((c) => !adaIds.has(c.id)),
        'bobs.every((c) => !adaIds.has(c.id))',
      );
      assert.ok(
        adas.every((c) => !c.text.includes('Bob')),
        "adas.every((c) => !c.text.includes('Bob'))",
      );
    });
  });
}
