import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { OidcVerifier } from '../../src/domain/users/oidc.js';
import { Detail } from '../../src/errors.js';
import { parseBearer } from '../../src/http/auth.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { invalid } from '../helpers/validation.js';

test('parseBearer strips the scheme once, case-insensitively', () => {
  assert.equal(parseBearer('Bearer abc'), 'abc');
  assert.equal(parseBearer('bearer abc'), 'abc');
  assert.equal(parseBearer('Bearer Bearer abc'), null);
  assert.equal(parseBearer('Token abc'), null);
  assert.equal(parseBearer(undefined), null);
});

for (const dialect of dialects()) {
  describe(`authentication and developer keys (${dialect})`, () => {
    let t: TestApp;
    let ada: TestUser;
    const clock = new ManualClock();

    before(async () => {
      t = await createTestApp(dialect, { clock });
      ada = await createUser(t.ctx);
    });
    after(() => t.close());

    const list = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/v1/dev/user/conversations', headers });

    test('missing or malformed Authorization → 401 with the reference detail', async () => {
      for (const headers of [{}, { authorization: 'Token x' }, { authorization: 'Bearer' }] as Array<
        Record<string, string>
      >) {
        const res = await list(headers);
        assert.equal(res.statusCode, 401);
        assert.deepEqual(res.json(), { detail: "Missing or invalid Authorization header. Must be 'Bearer API_KEY'" });
      }
    });

    test('unknown key → 401 Invalid API Key', async () => {
      for (const key of ['omi_dev_00000000000000000000000000000000', 'omi_dev_short', 'sk_abc', ada.token]) {
        const res = await list({ authorization: `Bearer ${key}` });
        assert.equal(res.statusCode, 401);
        assert.deepEqual(res.json(), { detail: 'Invalid API Key' });
      }
    });

    test('a key without the scope → 403 naming the scope', async () => {
      const reader = await createUser(t.ctx, { scopes: ['memories:read'] });
      const res = await list(reader.auth);
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), { detail: 'Insufficient permissions. Required scope: conversations:read' });
    });

    test('credentials and scope are checked before the body and query are validated', async () => {
      const reader = await createUser(t.ctx, { scopes: ['memories:read'] });
      const post = (headers: Record<string, string>, payload: string) =>
        t.app.inject({
          method: 'POST',
          url: '/v1/dev/user/memories',
          headers: { ...headers, 'content-type': 'application/json' },
          payload,
        });
      const invalid = '{"content":""}';
      const none = await post({}, invalid);
      assert.deepEqual([none.statusCode, none.json().detail], [401, Detail.missingBearer]);
      const unknown = await post({ authorization: 'Bearer omi_dev_nope' }, invalid);
      assert.deepEqual([unknown.statusCode, unknown.json().detail], [401, Detail.invalidApiKey]);
      const scope = await post(reader.auth, invalid);
      assert.deepEqual([scope.statusCode, scope.json().detail], [403, Detail.insufficientScope('memories:write')]);
      const query = await t.app.inject({ method: 'GET', url: '/v1/dev/user/memories?limit=abc' });
      assert.equal(query.statusCode, 401);
      // With valid credentials the schema answers, and the request counts against the limit.
      const valid = await post(ada.auth, invalid);
      assert.equal(valid.statusCode, 422);
      assert.deepEqual(valid.json().detail[0].loc, ['body', 'content']);
      assert.ok(valid.headers['x-ratelimit-remaining'], 'a validated request carries its rate-limit headers');
      // A body that is not JSON at all is refused before any hook runs, as FastAPI does.
      const malformed = await post({}, '{"content":');
      assert.equal(malformed.statusCode, 422);
      assert.equal(malformed.json().detail[0].type, 'json_invalid');
    });

    test('a key created without scopes is read-only', async () => {
      const reader = await createUser(t.ctx, { scopes: null });
      assert.equal((await list(reader.auth)).statusCode, 200);
      const write = await t.app.inject({
        method: 'POST',
        url: '/v1/dev/user/conversations',
        headers: reader.auth,
        payload: { text: 'hello' },
      });
      assert.equal(write.statusCode, 403);
      assert.deepEqual(write.json(), { detail: 'Insufficient permissions. Required scope: conversations:write' });
    });

    test('keys are created with the session token, shown once, hashed at rest', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/dev/keys',
        headers: ada.session,
        payload: { name: '  laptop  ', scopes: ['conversations:read', 'goals:write'] },
      });
      assert.equal(res.statusCode, 200);
      const created = res.json();
      assert.match(created.key, /^omi_dev_[0-9a-f]{32}$/);
      assert.equal(created.name, 'laptop');
      assert.equal(created.key_prefix, `omi_dev_${created.key.slice(8, 12)}...${created.key.slice(-4)}`);
      assert.deepEqual(created.scopes, ['conversations:read', 'goals:write']);
      const row = await t.ctx.repos.apiKeys.findById(ada.uid, created.id);
      assert.equal(row?.hashed_key, createHash('sha256').update(created.key.slice(8)).digest('hex'));
      const listed = (await t.app.inject({ method: 'GET', url: '/v1/dev/keys', headers: ada.session })).json();
      const mine = listed.find((k: { id: string }) => k.id === created.id);
      assert.equal(mine.key, undefined);
      assert.equal(mine.last_used_at, null);
      assert.equal((await list({ authorization: `Bearer ${created.key}` })).statusCode, 200);
      const self = await t.app.inject({
        method: 'GET',
        url: '/v1/dev/key',
        headers: { authorization: `Bearer ${created.key}` },
      });
      assert.equal(self.json().id, created.id);
      assert.notEqual(self.json().last_used_at, null);
    });

    test('key validation: empty name 422, unknown scope 400', async () => {
      const empty = await t.app.inject({
        method: 'POST',
        url: '/v1/dev/keys',
        headers: ada.session,
        payload: { name: ' ' },
      });
      assert.equal(empty.statusCode, 422);
      assert.deepEqual(empty.json(), invalid(['body', 'name'], 'Key name cannot be empty'));
      const bad = await t.app.inject({
        method: 'POST',
        url: '/v1/dev/keys',
        headers: ada.session,
        payload: { name: 'x', scopes: ['admin'] },
      });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().detail, /^Invalid scopes\. Available: \['conversations:read', /);
    });

    test("revoking a key stops it at once; unknown and other users' ids are a 404", async () => {
      const bob = await createUser(t.ctx, { name: 'Bob' });
      const foreign = await t.app.inject({ method: 'DELETE', url: `/v1/dev/keys/${ada.uid}`, headers: bob.session });
      assert.deepEqual([foreign.statusCode, foreign.json()], [404, { detail: 'API key not found' }]);
      const [bobKey] = await t.ctx.keys.list(bob.uid);
      const stolen = await t.app.inject({ method: 'DELETE', url: `/v1/dev/keys/${bobKey.id}`, headers: ada.session });
      assert.deepEqual([stolen.statusCode, stolen.json()], [404, { detail: 'API key not found' }]);
      assert.equal((await list(bob.auth)).statusCode, 200, 'another user cannot revoke my key');
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/dev/keys/${bobKey.id}`, headers: bob.session });
      assert.equal(res.statusCode, 204);
      assert.equal((await list(bob.auth)).statusCode, 401);
      const again = await t.app.inject({ method: 'DELETE', url: `/v1/dev/keys/${bobKey.id}`, headers: bob.session });
      assert.equal(again.statusCode, 404, 'a revoked key is gone');
    });

    test('key management needs a session token, not a developer key', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/dev/keys', headers: ada.auth });
      assert.equal(res.statusCode, 401);
    });

    test('session tokens expire', async () => {
      const token = t.ctx.users.issueSessionToken(ada.uid, 60);
      const headers = { authorization: `Bearer ${token}` };
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/dev/keys', headers })).statusCode, 200);
      clock.advance(61_000);
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/dev/keys', headers })).statusCode, 401);
    });
  });
}

describe('OIDC verification against a JWKS', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let server: Server;
  let issuer = '';

  before(async () => {
    server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ jwks_uri: `${issuer}/jwks` }));
      else res.end(JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256' }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const jwt = (claims: Record<string, unknown>, kid = 'k1') => {
    const enc = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const input = `${enc({ alg: 'RS256', kid })}.${enc(claims)}`;
    return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
  };
  const now = Date.parse('2026-11-20T10:00:00Z');
  const exp = now / 1000 + 600;

  test('accepts a valid token and returns its subject', async () => {
    const verifier = new OidcVerifier(issuer, 'keepsake');
    assert.equal(await verifier.verify(jwt({ iss: issuer, sub: 'user-1', aud: 'keepsake', exp }), now), 'user-1');
  });

  test('rejects wrong audience, issuer, expiry and tampering', async () => {
    const verifier = new OidcVerifier(issuer, 'keepsake');
    assert.equal(await verifier.verify(jwt({ iss: issuer, sub: 'u', aud: 'other', exp }), now), null);
    assert.equal(await verifier.verify(jwt({ iss: 'https://evil', sub: 'u', aud: 'keepsake', exp }), now), null);
    assert.equal(
      await verifier.verify(jwt({ iss: issuer, sub: 'u', aud: 'keepsake', exp: now / 1000 - 1 }), now),
      null,
    );
    const token = jwt({ iss: issuer, sub: 'u', aud: 'keepsake', exp });
    const [h, , s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ iss: issuer, sub: 'admin', aud: 'keepsake', exp })).toString('base64url')}.${s}`;
    assert.equal(await verifier.verify(forged, now), null);
  });
});
