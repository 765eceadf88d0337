import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { parseJsonBody } from '../../src/app.js';
import { createTestApp, createUser, type TestApp, type TestUser } from '../helpers/app.js';

interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  body?: string;
  contentType?: string;
  status: number;
}

const SEG = '{"transcript_segments":[{"text":"hi there","start":0,"end":1}]}';

const CASES: Case[] = [
  { name: 'malformed JSON', method: 'POST', url: '/v1/dev/user/conversations', body: '{"text": "a",', status: 422 },
  {
    name: 'JSON array instead of object',
    method: 'POST',
    url: '/v1/dev/user/conversations',
    body: '["text"]',
    status: 422,
  },
  { name: 'empty body', method: 'POST', url: '/v1/dev/user/conversations', body: '', status: 422 },
  { name: 'null body', method: 'POST', url: '/v1/dev/user/conversations', body: 'null', status: 422 },
  { name: 'text is a number', method: 'POST', url: '/v1/dev/user/conversations', body: '{"text": 5}', status: 422 },
  { name: 'text is null', method: 'POST', url: '/v1/dev/user/conversations', body: '{"text": null}', status: 422 },
  {
    name: 'unknown text_source',
    method: 'POST',
    url: '/v1/dev/user/conversations',
    body: '{"text":"a b","text_source":"fax"}',
    status: 422,
  },
  {
    name: 'bad started_at',
    method: 'POST',
    url: '/v1/dev/user/conversations',
    body: '{"text":"a b","started_at":"yesterday"}',
    status: 422,
  },
  {
    name: 'latitude out of range',
    method: 'POST',
    url: '/v1/dev/user/conversations',
    body: '{"text":"a b","geolocation":{"latitude":91,"longitude":0}}',
    status: 422,
  },
  {
    name: 'geolocation without longitude',
    method: 'POST',
    url: '/v1/dev/user/conversations',
    body: '{"text":"a b","geolocation":{"latitude":1}}',
    status: 422,
  },
  {
    name: 'form-encoded body',
    method: 'POST',
    url: '/v1/dev/user/conversations',
    body: 'text=hello',
    contentType: 'application/x-www-form-urlencoded',
    status: 415,
  },
  {
    name: 'segments not an array',
    method: 'POST',
    url: '/v1/dev/user/conversations/from-segments',
    body: '{"transcript_segments":{}}',
    status: 422,
  },
  {
    name: 'segment start is a string',
    method: 'POST',
    url: '/v1/dev/user/conversations/from-segments',
    body: '{"transcript_segments":[{"text":"a","start":"0","end":1}]}',
    status: 422,
  },
  {
    name: 'segment speaker label malformed',
    method: 'POST',
    url: '/v1/dev/user/conversations/from-segments',
    body: '{"transcript_segments":[{"text":"a","start":0,"end":1,"speaker":"bob"}]}',
    status: 422,
  },
  {
    name: 'unknown source',
    method: 'POST',
    url: '/v1/dev/user/conversations/from-segments',
    body: SEG.replace('{', '{"source":"pager",'),
    status: 422,
  },
  {
    name: 'blank client_session_id',
    method: 'POST',
    url: '/v1/dev/user/conversations/from-segments',
    body: SEG.replace('{', '{"client_session_id":"   ",'),
    status: 422,
  },
  {
    name: 'patch discarded as string',
    method: 'PATCH',
    url: '/v1/dev/user/conversations/x',
    body: '{"discarded":"yes"}',
    status: 422,
  },
  { name: 'huge offset', method: 'GET', url: '/v1/dev/user/conversations?offset=1e30', status: 422 },
  {
    name: 'include_transcript not a bool',
    method: 'GET',
    url: '/v1/dev/user/conversations?include_transcript=maybe',
    status: 422,
  },
  { name: 'start_date not a date', method: 'GET', url: '/v1/dev/user/conversations?start_date=tomorrow', status: 422 },
  { name: 'unknown conversation', method: 'GET', url: '/v1/dev/user/conversations/does-not-exist', status: 404 },
  { name: 'unknown route', method: 'GET', url: '/v1/dev/user/nothing-here', status: 404 },
  { name: 'path id not valid percent-encoding', method: 'GET', url: '/v1/dev/user/conversations/%ZZ', status: 400 },
  { name: 'path id cut mid-character', method: 'DELETE', url: '/v1/dev/user/memories/%E0%A4', status: 400 },
  // Ids up to the schema's 200 characters reach validation; longer ones are refused by the schema,
  // and ones past the router's limit before it, in the same error shape.
  { name: 'path id of 200 characters', method: 'GET', url: `/v1/dev/user/goals/${'g'.repeat(200)}`, status: 404 },
  { name: 'path id of 201 characters', method: 'GET', url: `/v1/dev/user/goals/${'g'.repeat(201)}`, status: 422 },
  { name: 'path id of 600 characters', method: 'GET', url: `/v1/dev/user/goals/${'g'.repeat(600)}`, status: 414 },
];

describe('bad input is a clear 4xx and writes nothing', () => {
  let t: TestApp;
  let ada: TestUser;

  before(async () => {
    t = await createTestApp('sqlite', { config: { bodyLimit: 300_000 } });
    ada = await createUser(t.ctx);
  });
  after(() => t.close());

  const countRows = async () => {
    const row = await t.ctx.store.db
      .selectFrom('conversations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  for (const c of CASES) {
    test(`${c.name} → ${c.status}`, async () => {
      const before = await countRows();
      const res = await t.app.inject({
        method: c.method,
        url: c.url,
        headers: {
          ...ada.auth,
          ...(c.body !== undefined ? { 'content-type': c.contentType ?? 'application/json' } : {}),
        },
        ...(c.body !== undefined ? { payload: c.body } : {}),
      });
      assert.equal(res.statusCode, c.status, res.body);
      const body = res.json();
      assert.ok('detail' in body, 'error body has detail');
      if (c.status === 422 && Array.isArray(body.detail)) {
        for (const issue of body.detail) {
          assert.ok(['body', 'query', 'path'].includes(issue.loc[0]), JSON.stringify(issue));
          assert.equal(typeof issue.msg, 'string');
          assert.equal(typeof issue.type, 'string');
        }
      }
      assert.equal(await countRows(), before);
    });
  }

  test('a structured-syntax JSON type (…+json) is read as JSON; a form or text/plain body is still 415', async () => {
    const post = (contentType: string, payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/dev/user/memories',
        headers: { ...ada.auth, 'content-type': contentType },
        payload,
      });
    const ok = await post('application/vnd.api+json; charset=utf-8', '{"content":"Likes +json bodies"}');
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().content, 'Likes +json bodies');
    const bad = await post('application/merge-patch+json', '{"content":');
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.json().detail[0].type, 'json_invalid');
    const form = await post('application/x-www-form-urlencoded', 'content=x');
    assert.equal(form.statusCode, 415);
    // The detail says what to send instead (curl -d sends a form unless told otherwise).
    assert.equal(
      form.json().detail,
      'Unsupported Media Type: application/x-www-form-urlencoded. Send the body as JSON with the header Content-Type: application/json',
    );
    // JSON sent as text/plain is another media type too, not a string body that fails validation.
    const plain = await post('text/plain', '{"content":"x"}');
    assert.equal(plain.statusCode, 415, plain.body);
    assert.equal(typeof plain.json().detail, 'string');
  });

  test('non-UTF-8 body → 422', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/dev/user/conversations',
      headers: { ...ada.auth, 'content-type': 'application/json' },
      payload: Buffer.from([0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().detail[0].type, 'unicode_decode');
  });

  test('a body above the documented limit → 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/dev/user/conversations',
      headers: { ...ada.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ text: 'a'.repeat(400_000) }),
    });
    assert.equal(res.statusCode, 413);
    assert.match(res.json().detail, /too large/);
  });

  test('property: arbitrary JSON bodies never produce a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/v1/dev/user/conversations', '/v1/dev/user/conversations/from-segments'),
        fc.oneof(
          fc.jsonValue(),
          fc.record({ text: fc.jsonValue(), started_at: fc.jsonValue() }, { requiredKeys: [] }),
          fc.record({
            transcript_segments: fc.array(fc.record({ text: fc.string(), start: fc.double(), end: fc.double() }), {
              maxLength: 3,
            }),
          }),
        ),
        async (url, body) => {
          const res = await t.app.inject({
            method: 'POST',
            url,
            headers: { ...ada.auth, 'content-type': 'application/json' },
            payload: JSON.stringify(body) ?? 'null',
          });
          assert.ok(res.statusCode < 500, `${res.statusCode} ${res.body} for ${JSON.stringify(body)}`);
        },
      ),
      { numRuns: 150, seed: 20261122 },
    );
  });
});

describe('JSON body parsing', () => {
  test('__proto__ and constructor keys are dropped at any depth', () => {
    const parsed = parseJsonBody(
      '{"content":"Likes tea","__proto__":{"polluted":true},"tags":[{"constructor":{"prototype":{"x":1}},"ok":1}]}',
    ) as Record<string, unknown>;
    assert.deepEqual(Object.keys(parsed), ['content', 'tags']);
    assert.deepEqual(parsed.tags, [{ ok: 1 }]);
    assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
  });

  test('a body that never mentions those keys parses exactly as JSON.parse does', () => {
    const text = '{"text":"a \\"quoted\\" word","n":[1,2.5,null,true],"nested":{"deep":{"x":"y"}}}';
    assert.deepEqual(parseJsonBody(text), JSON.parse(text));
  });
});
