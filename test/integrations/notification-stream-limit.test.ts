import assert from 'node:assert/strict';
import { get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { testConfig } from '../../src/config.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';

const LIMIT = 3;

/** Opens the notification stream; a 200 stays open (and has sent `: connected`), anything else carries its body. */
async function connect(base: string, who: TestUser): Promise<{ status: number; body: string; res: IncomingMessage }> {
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    httpGet(`${base}/v1/notifications/stream`, { headers: who.session }, resolve).on('error', reject);
  });
  res.setEncoding('utf8');
  let body = '';
  await new Promise<void>((resolve) => {
    res.on('data', (chunk: string) => {
      body += chunk;
      if (res.statusCode === 200 && body.includes(': connected')) resolve();
    });
    res.on('end', resolve);
  });
  return { status: res.statusCode ?? 0, body, res };
}

for (const dialect of dialects()) {
  describe(`notification streams per user (${dialect})`, () => {
    let t: TestApp;
    let base: string;
    let user: TestUser;
    let other: TestUser;

    before(async () => {
      t = await createTestApp(dialect, { config: { ops: { ...testConfig().ops, maxSseStreamsPerUser: LIMIT } } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      user = await createUser(t.ctx, { name: 'Tabs' });
      other = await createUser(t.ctx, { name: 'Other' });
    });
    after(() => t.close());

    /** Retries until the server has seen the last close and admits a new stream (the release follows the close). */
    const connectOnceReleased = async (who: TestUser) => {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const stream = await connect(base, who);
        if (stream.status === 200) return stream;
        assert.equal(stream.status, 429);
        if (Date.now() > deadline) throw new Error('the slot was never released');
      }
    };

    test('past the cap a stream is refused with 429 in the contract shape, naming the limit', async () => {
      const held = await Promise.all(Array.from({ length: LIMIT }, () => connect(base, user)));
      try {
        assert.deepEqual(
          held.map((s) => s.status),
          Array(LIMIT).fill(200),
        );
        const refused = await connect(base, user);
        assert.equal(refused.status, 429);
        assert.deepEqual(JSON.parse(refused.body), {
          detail: `Too many notification streams open for this user (limit ${LIMIT}); close one before opening another`,
        });
        const theirs = await connect(base, other);
        assert.equal(theirs.status, 200, "another user's streams are not counted");
        theirs.res.destroy();
      } finally {
        for (const stream of held) stream.res.destroy();
      }
    });

    test('a closed stream frees its slot', async () => {
      const held = await Promise.all(Array.from({ length: LIMIT }, () => connectOnceReleased(user)));
      held[0].res.destroy();
      const next = await connectOnceReleased(user);
      assert.equal(next.status, 200);
      for (const stream of [...held.slice(1), next]) stream.res.destroy();
      const again = await Promise.all(Array.from({ length: LIMIT }, () => connectOnceReleased(user)));
      for (const stream of again) stream.res.destroy();
    });
  });
}

describe('notification streams per user across processes (Redis)', {
  skip: process.env.TEST_REDIS_URL ? false : 'TEST_REDIS_URL is not set',
}, () => {
  const apps: TestApp[] = [];
  const bases: string[] = [];
  let user: TestUser;

  before(async () => {
    const config = {
      redisUrl: process.env.TEST_REDIS_URL ?? '',
      secret: 'a shared secret of at least 32 characters',
      ops: { ...testConfig().ops, maxSseStreamsPerUser: 2 },
    };
    // Two servers on one SQLite database stand for two processes behind a load balancer.
    const first = await createTestApp('sqlite', { config });
    const second = await createTestApp('sqlite', { config, store: first.ctx.store });
    for (const t of [first, second]) {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      bases.push(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`);
      apps.push(t);
    }
    user = await createUser(first.ctx, { name: 'Two Nodes' });
  });
  after(async () => {
    for (const t of [...apps].reverse()) await t.close();
  });

  test('the cap counts the streams a user holds on every process', async () => {
    const held = [await connect(bases[0], user), await connect(bases[1], user)];
    try {
      assert.deepEqual(
        held.map((s) => s.status),
        [200, 200],
      );
      assert.equal((await connect(bases[0], user)).status, 429);
      assert.equal((await connect(bases[1], user)).status, 429);
    } finally {
      for (const stream of held) stream.res.destroy();
    }
  });
});
