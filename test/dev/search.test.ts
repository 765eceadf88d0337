import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { createUser, dialects, type TestUser } from '../helpers/app.js';
import { appWithTwoUsers } from '../helpers/suite.js';
import { seedConversation, seedMemory } from './fixtures.js';

interface Memory {
  id: string;
  content: string;
}

interface Conversation {
  id: string;
  structured: { title: string };
  transcript_segments: Array<{ text: string }> | null;
}

for (const dialect of dialects()) {
  describe(`full-text search (${dialect})`, () => {
    const clock = new ManualClock();
    const { t, ada, bob, call } = appWithTwoUsers(dialect, { clock });

    const get = (user: TestUser, url: string) => call(user, 'GET', url);
    const memoryIds = async (user: TestUser, query: string): Promise<string[]> => {
      const res = await get(user, `/v1/dev/user/memories/search?${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().map((m: Memory) => m.id);
    };
    const conversationIds = async (user: TestUser, query: string): Promise<string[]> => {
      const res = await get(user, `/v1/dev/user/conversations/search?${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().map((c: Conversation) => c.id);
    };

    describe('memories', () => {
      test('every word must occur (stemmed): hikes matches hiking', async () => {
        const user = await createUser(t.ctx);
        const oneWord = await seedMemory(t.ctx, user.uid, { content: 'Enjoys hiking on weekends' });
        const bothWords = await seedMemory(t.ctx, user.uid, { content: 'Went hiking in the Alps last summer' });
        await seedMemory(t.ctx, user.uid, { content: 'Allergic to peanuts' });
        assert.deepEqual(await memoryIds(user, 'q=hikes%20alps'), [bothWords]);
        assert.deepEqual((await memoryIds(user, 'q=hikes')).sort(), [oneWord, bothWords].sort());
      });

      test('the better match ranks first', async () => {
        const user = await createUser(t.ctx);
        const weak = await seedMemory(t.ctx, user.uid, {
          content: 'Mentioned sourdough once while talking at length about trains, weather, gardening and taxes',
        });
        const strong = await seedMemory(t.ctx, user.uid, { content: 'Bakes sourdough; sourdough starter named Bob' });
        assert.deepEqual(await memoryIds(user, 'q=sourdough'), [strong, weak]);
      });

      test('finds memories created through the API, and follows edits and deletes', async () => {
        const user = await createUser(t.ctx);
        const created = (await call(user, 'POST', '/v1/dev/user/memories', { content: 'Plays the cello' })).json();
        assert.deepEqual(await memoryIds(user, 'q=cello'), [created.id]);
        await call(user, 'PATCH', `/v1/dev/user/memories/${created.id}`, { content: 'Plays the violin' });
        assert.deepEqual(await memoryIds(user, 'q=cello'), []);
        assert.deepEqual(await memoryIds(user, 'q=violin'), [created.id]);
        await call(user, 'DELETE', `/v1/dev/user/memories/${created.id}`);
        assert.deepEqual(await memoryIds(user, 'q=violin'), []);
      });

      test("never returns another user's memories", async () => {
        await seedMemory(t.ctx, bob.uid, { content: 'Bob owns a zeppelin' });
        assert.deepEqual(await memoryIds(ada, 'q=zeppelin'), []);
        assert.equal((await memoryIds(bob, 'q=zeppelin')).length, 1);
      });

      test('applies the categories filter and paging', async () => {
        const user = await createUser(t.ctx);
        const work = await seedMemory(t.ctx, user.uid, { content: 'Works on compilers', category: 'work' });
        await seedMemory(t.ctx, user.uid, { content: 'Reads about compilers', category: 'interests' });
        assert.deepEqual(await memoryIds(user, 'q=compilers&categories=work'), [work]);
        assert.equal((await memoryIds(user, 'q=compilers&limit=1')).length, 1);
        assert.equal((await memoryIds(user, 'q=compilers&limit=1&offset=1')).length, 1);
      });

      test('search syntax in the query is treated as plain words', async () => {
        const user = await createUser(t.ctx);
        const id = await seedMemory(t.ctx, user.uid, { content: 'Speaks Portuguese fluently' });
        // Quotes, prefix stars, column filters, groups and boolean operators are not syntax here.
        for (const q of [
          '"portuguese',
          'portuguese*',
          'fluently:portuguese',
          '(portuguese)',
          '-portuguese',
          'portuguese & !speaks | (',
        ]) {
          assert.deepEqual(await memoryIds(user, `q=${encodeURIComponent(q)}`), [id], q);
        }
        // Operator words are ordinary words that must occur, so these find nothing (and do not fail).
        for (const q of ['NEAR(portuguese speaks)', "portuguese') OR 1=1 --"]) {
          assert.deepEqual(await memoryIds(user, `q=${encodeURIComponent(q)}`), [], q);
        }
      });

      test('an empty, blank or punctuation-only q → 422', async () => {
        for (const q of ['', '%20%20', '%22*()%22']) {
          assert.equal((await get(ada, `/v1/dev/user/memories/search?q=${q}`)).statusCode, 422, q);
        }
        assert.equal((await get(ada, '/v1/dev/user/memories/search')).statusCode, 422);
      });
    });

    describe('conversations', () => {
      test('finds conversations by title, overview, created text and transcript segments', async () => {
        const user = await createUser(t.ctx);
        const byTitle = await seedConversation(t.ctx, user.uid, { title: 'Quarterly planning' });
        const byOverview = await seedConversation(t.ctx, user.uid, { overview: 'We talked about quarterly numbers' });
        const byText = await seedConversation(t.ctx, user.uid, { text: 'reminder about the lighthouse tour' });
        const bySegment = await seedConversation(t.ctx, user.uid, {
          segments: ['hello there', 'the aquarium opens at nine'],
        });
        assert.deepEqual(await conversationIds(user, 'q=quarterly'), [byTitle, byOverview]);
        assert.deepEqual(await conversationIds(user, 'q=lighthouse'), [byText]);
        assert.deepEqual(await conversationIds(user, 'q=aquarium'), [bySegment]);
      });

      test('only completed, non-discarded conversations are searched', async () => {
        const user = await createUser(t.ctx);
        await seedConversation(t.ctx, user.uid, { title: 'Marmalade recipe', discarded: true });
        await seedConversation(t.ctx, user.uid, { title: 'Marmalade shopping', status: 'in_progress' });
        assert.deepEqual(await conversationIds(user, 'q=marmalade'), []);
      });

      test('a conversation becomes searchable when it completes, with segments appended before', async () => {
        const user = await createUser(t.ctx);
        const id = await seedConversation(t.ctx, user.uid, {
          status: 'in_progress',
          segments: ['the saxophone lesson'],
        });
        await t.ctx.repos.conversations.appendSegments([
          {
            id: `${id}-2`,
            user_id: user.uid,
            conversation_id: id,
            seq: 1,
            text: 'then the trombone',
            speaker: 'SPEAKER_00',
            speaker_id: 0,
            is_user: 0,
            person_id: null,
            start_sec: 1,
            end_sec: 2,
          },
        ]);
        assert.deepEqual(await conversationIds(user, 'q=trombone'), []);
        await t.ctx.repos.conversations.update(user.uid, id, { status: 'completed', title: 'Music' });
        assert.deepEqual(await conversationIds(user, 'q=trombone'), [id]);
        assert.deepEqual(await conversationIds(user, 'q=saxophone'), [id]);
      });

      test('renaming, discarding and deleting are reflected', async () => {
        const user = await createUser(t.ctx);
        const id = await seedConversation(t.ctx, user.uid, { title: 'Old name', segments: ['some words'] });
        await call(user, 'PATCH', `/v1/dev/user/conversations/${id}`, { title: 'Volcano trip' });
        assert.deepEqual(await conversationIds(user, 'q=volcano'), [id]);
        assert.deepEqual(await conversationIds(user, 'q=old'), []);
        await call(user, 'DELETE', `/v1/dev/user/conversations/${id}`);
        assert.deepEqual(await conversationIds(user, 'q=volcano'), []);
      });

      test('applies the list filters: starred, folder, categories, dates', async () => {
        const user = await createUser(t.ctx);
        const folder = (await call(user, 'POST', '/v1/dev/user/folders', { name: 'F' })).json();
        const base = clock.now();
        const starred = await seedConversation(t.ctx, user.uid, {
          title: 'Tennis match',
          starred: true,
          createdAt: base + 1000,
        });
        const inFolder = await seedConversation(t.ctx, user.uid, {
          title: 'Tennis lesson',
          folderId: folder.id,
          category: 'sports',
          createdAt: base + 2000,
        });
        assert.deepEqual(await conversationIds(user, 'q=tennis&starred=true'), [starred]);
        assert.deepEqual(await conversationIds(user, `q=tennis&folder_id=${folder.id}`), [inFolder]);
        assert.deepEqual(await conversationIds(user, 'q=tennis&categories=sports'), [inFolder]);
        const from = encodeURIComponent(new Date(base + 2000).toISOString());
        assert.deepEqual(await conversationIds(user, `q=tennis&start_date=${from}`), [inFolder]);
        assert.equal((await get(user, '/v1/dev/user/conversations/search?q=tennis&categories=nope')).statusCode, 400);
      });

      test('include_transcript returns the segments', async () => {
        const user = await createUser(t.ctx);
        await seedConversation(t.ctx, user.uid, { title: 'Kayak', segments: ['paddle left'] });
        const [withTranscript]: Conversation[] = (
          await get(user, '/v1/dev/user/conversations/search?q=kayak&include_transcript=true')
        ).json();
        const [without]: Conversation[] = (await get(user, '/v1/dev/user/conversations/search?q=kayak')).json();
        assert.deepEqual(
          withTranscript.transcript_segments?.map((s) => s.text),
          ['paddle left'],
        );
        assert.equal(without.transcript_segments, null);
      });

      test("never returns another user's conversations", async () => {
        await seedConversation(t.ctx, bob.uid, { title: 'Bob and the submarine' });
        assert.deepEqual(await conversationIds(ada, 'q=submarine'), []);
      });

      test('a conversation created through the API from segments is found by its transcript', async () => {
        const user = await createUser(t.ctx);
        const res = await call(user, 'POST', '/v1/dev/user/conversations/from-segments', {
          transcript_segments: [
            { text: 'I booked the flights to Reykjavik for our anniversary in March.', start: 0, end: 4 },
            { text: 'We still need to reserve a hotel near the harbour and rent a car.', start: 4, end: 9 },
          ],
        });
        const created = res.json();
        assert.equal(created.discarded, false, res.body);
        assert.deepEqual(await conversationIds(user, 'q=reykjavik'), [created.id]);
      });
    });
  });
}
