import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonDeeperThan } from '../../src/http/input-guards.js';
import { dialects } from '../helpers/app.js';
import { appWithTwoUsers } from '../helpers/suite.js';

const NUL = 'Text must not contain the NUL character (\\u0000)';
const SURROGATE = 'Text must be valid Unicode (a lone UTF-16 surrogate is not)';
const unstorable = (loc: Array<string | number>, msg: string) => ({
  detail: [{ loc, msg, type: 'string_unstorable' }],
});

test('the depth scan counts brackets outside strings only', () => {
  assert.equal(jsonDeeperThan('[[[1]]]', 3), false);
  assert.equal(jsonDeeperThan('[[[[1]]]]', 3), true);
  assert.equal(jsonDeeperThan('{"a":"[[[[[[\\"[[[["}', 1), false);
  assert.equal(jsonDeeperThan('{"a\\\\":[[1]]}', 2), true);
  assert.equal(jsonDeeperThan('"unterminated', 0), false);
});

// A NUL character or a lone surrogate is refused on both databases alike, by field, before any write.
for (const dialect of dialects()) {
  describe(`text no database can store (${dialect})`, () => {
    const { t, ada } = appWithTwoUsers(dialect);
    const send = (
      method: 'GET' | 'POST' | 'PATCH',
      url: string,
      payload?: string,
      headers: Record<string, string> = ada.auth,
    ) => t.app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload });
    const count = async (table: 'memories' | 'conversations' | 'action_items' | 'folders' | 'goals') =>
      Number(
        (
          await t.ctx.store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    test('a NUL in a body string is a 422 naming the field, and nothing is stored', async () => {
      const cases: Array<[string, string, Array<string | number>, Parameters<typeof count>[0]]> = [
        ['/v1/dev/user/memories', '{"content":"a\\u0000b"}', ['body', 'content'], 'memories'],
        ['/v1/dev/user/conversations', '{"text":"We met at noon\\u0000"}', ['body', 'text'], 'conversations'],
        [
          '/v1/dev/user/conversations/from-segments',
          '{"transcript_segments":[{"text":"ok","start":0,"end":1},{"text":"\\u0000","start":1,"end":2}]}',
          ['body', 'transcript_segments', 1, 'text'],
          'conversations',
        ],
        ['/v1/dev/user/action-items', '{"description":"call\\u0000"}', ['body', 'description'], 'action_items'],
        ['/v1/dev/user/folders', '{"name":"\\u0000"}', ['body', 'name'], 'folders'],
        ['/v1/dev/user/goals', '{"title":"run","target_value":3,"unit":"k\\u0000m"}', ['body', 'unit'], 'goals'],
      ];
      for (const [url, body, loc, table] of cases) {
        const before = await count(table);
        const res = await send('POST', url, body);
        assert.deepEqual([res.statusCode, res.json()], [422, unstorable(loc, NUL)], url);
        assert.equal(await count(table), before, `${url} stored nothing`);
      }
    });

    test('a lone surrogate in a body string or key is a 422 naming it', async () => {
      const lone = await send('POST', '/v1/dev/user/memories', '{"content":"half \\ud800 a pair"}');
      assert.deepEqual([lone.statusCode, lone.json()], [422, unstorable(['body', 'content'], SURROGATE)]);
      const key = await send('POST', '/v1/dev/user/memories', '{"content":"fine","\\udc00":1}');
      assert.deepEqual([key.statusCode, key.json()], [422, unstorable(['body', '\udc00'], SURROGATE)]);
      const pair = await send('POST', '/v1/dev/user/memories', '{"content":"a pair \\ud83d\\ude00 is fine"}');
      assert.equal(pair.statusCode, 200);
      assert.equal(pair.json().content, 'a pair 😀 is fine');
    });

    test('an escaped backslash before u0000 is ordinary text', async () => {
      const res = await send('POST', '/v1/dev/user/memories', '{"content":"C:\\\\u0000"}');
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().content, 'C:\\u0000');
    });

    test('%00 in a path or query parameter is a 422 naming it', async () => {
      const path = await send('GET', '/v1/dev/user/conversations/abc%00');
      assert.deepEqual([path.statusCode, path.json()], [422, unstorable(['path', 'conversation_id'], NUL)]);
      const query = await send('GET', '/v1/dev/user/conversations?folder_id=a%00');
      assert.deepEqual([query.statusCode, query.json()], [422, unstorable(['query', 'folder_id'], NUL)]);
      const search = await send('GET', '/v1/dev/user/memories/search?q=hello%00');
      assert.deepEqual([search.statusCode, search.json()], [422, unstorable(['query', 'q'], NUL)]);
      const stream = await send('GET', '/v1/notifications/stream?token=a%00', undefined, {});
      assert.deepEqual([stream.statusCode, stream.json()], [422, unstorable(['query', 'token'], NUL)]);
    });

    test('the check runs before any credential lookup, as JSON parsing does', async () => {
      const res = await send('GET', '/v2/integrations/app%00/conversations?uid=u', undefined, {
        authorization: 'Bearer sk_x',
      });
      assert.deepEqual([res.statusCode, res.json()], [422, unstorable(['path', 'app_id'], NUL)]);
    });

    test('JSON nested 5,000 levels deep is a 422 on any route', async () => {
      const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
      for (const [method, url, headers] of [
        ['POST', '/v1/dev/user/memories', ada.auth],
        ['PATCH', '/v1/users/me/settings', ada.session],
        ['POST', '/v1/dev/user/conversations', ada.auth],
      ] as const) {
        const res = await send(method, url, deep, headers);
        assert.deepEqual(
          [res.statusCode, res.json()],
          [422, { detail: [{ loc: ['body'], msg: 'JSON nests deeper than 64 levels', type: 'json_too_deep' }] }],
          url,
        );
      }
      const arrays = await send('POST', '/v1/dev/user/memories', `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
      assert.equal(arrays.statusCode, 422);
    });

    test('settings store their declared fields only; unknown keys are dropped', async () => {
      const settings = () =>
        t.ctx.store.db.selectFrom('users').select('settings').where('id', '=', ada.uid).executeTakeFirstOrThrow();
      // A document an older version let grow is cut back to the declared fields on the next write.
      await t.ctx.store.db
        .updateTable('users')
        .set({ settings: JSON.stringify({ junk: 'x'.repeat(10_000) }) })
        .where('id', '=', ada.uid)
        .execute();
      const res = await send(
        'PATCH',
        '/v1/users/me/settings',
        JSON.stringify({ audio_capture: true, theme: 'dark', blob: 'x'.repeat(100_000), nested: { a: [1] } }),
        ada.session,
      );
      assert.deepEqual([res.statusCode, res.json()], [200, { audio_capture: true }]);
      assert.deepEqual(JSON.parse((await settings()).settings), { audio_capture: true });
      const unknownOnly = await send('PATCH', '/v1/users/me/settings', '{"theme":"light"}', ada.session);
      assert.deepEqual([unknownOnly.statusCode, unknownOnly.json()], [200, { audio_capture: true }]);
      assert.deepEqual(JSON.parse((await settings()).settings), { audio_capture: true });
      const wrongType = await send('PATCH', '/v1/users/me/settings', '{"audio_capture":"yes"}', ada.session);
      assert.equal(wrongType.statusCode, 422);
    });

    test('undeclared keys inside a stored object are dropped too', async () => {
      const geolocation = { latitude: 1, longitude: 2, address: 'Main St', blob: 'x'.repeat(100_000) };
      const res = await send('POST', '/v1/dev/user/conversations', JSON.stringify({ text: 'We met.', geolocation }));
      assert.equal(res.statusCode, 200, res.body);
      const row = await t.ctx.store.db
        .selectFrom('conversations')
        .select('geolocation')
        .where('id', '=', res.json().id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(row.geolocation ?? 'null'), { latitude: 1, longitude: 2, address: 'Main St' });
    });
  });
}
