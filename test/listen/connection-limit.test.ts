import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testConfig } from '../../src/config.js';
import { createUser, dialects, type TestUser } from '../helpers/app.js';
import { ListenClient, type ListenServer, listenServer, listenUrl } from './support.js';

const LIMIT = 2;
const REFUSAL = { code: 1008, reason: `Too many live connections for this user (limit ${LIMIT})` };

for (const dialect of dialects()) {
  describe(`listen sockets per user (${dialect})`, () => {
    let server: ListenServer;
    let user: TestUser;
    before(async () => {
      server = await listenServer(dialect, {
        config: { ops: { ...testConfig().ops, maxListenSocketsPerUser: LIMIT } },
      });
    });
    after(() => server.close());

    /** A native stream: resolves once its session is ready, or once it is closed. */
    const open = async (who: TestUser) => {
      const client = await ListenClient.connect(listenUrl(server.base, { custom_stt: 'enabled' }), who.session);
      await client.waitFor(() => client.closed ?? client.events('service_status').find((e) => e.status === 'ready'));
      return client;
    };
    /** A browser stream: authenticates with its first message, then the same. */
    const openWeb = async (who: TestUser) => {
      const client = await ListenClient.connect(listenUrl(server.base, { custom_stt: 'enabled' }, '/v4/web/listen'));
      client.send({ type: 'auth', token: who.token });
      await client.waitFor(() => client.closed ?? client.events('service_status').find((e) => e.status === 'ready'));
      return client;
    };
    /** Retries until the server has seen the last close and admits a new stream (the release follows the close). */
    const openOnceReleased = async (who: TestUser) => {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const client = await open(who);
        if (!client.closed) return client;
        assert.deepEqual(client.closed, REFUSAL);
        if (Date.now() > deadline) throw new Error('the slot was never released');
      }
    };

    before(async () => {
      user = await createUser(server.t.ctx, { name: 'Many Devices' });
    });

    test('past the cap a native or browser stream is closed with 1008 naming the limit', async () => {
      const held = [await open(user), await open(user)];
      try {
        assert.ok(
          held.every((c) => c.closed === null),
          'held.every((c) => c.closed === null)',
        );
        assert.deepEqual((await open(user)).closed, REFUSAL);
        assert.deepEqual((await openWeb(user)).closed, REFUSAL, '/v4/web/listen shares the count');
        const other = await open(server.user);
        assert.equal(other.closed, null, "another user's streams are not counted");
        await other.close();
      } finally {
        for (const client of held) await client.close();
      }
    });

    test('closing a stream frees its slot, whichever way it ends', async () => {
      const first = await open(user);
      const second = await openWeb(user);
      assert.equal(second.closed, null);
      await first.close();
      const third = await openOnceReleased(user);
      second.ws.terminate(); // no close handshake: the socket just drops
      const fourth = await openOnceReleased(user);
      await third.close();
      await fourth.close();
      const after = [await openOnceReleased(user), await openOnceReleased(user)];
      for (const client of after) await client.close();
    });
  });
}
