import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { createUser, dialects } from '../helpers/app.js';
import { ListenClient, type ListenServer, listenServer, listenUrl, segment, suggest } from './support.js';

for (const dialect of dialects()) {
  describe(`listen admission and frames (${dialect})`, () => {
    let server: ListenServer;
    let clock: ManualClock;
    before(async () => {
      clock = new ManualClock();
      server = await listenServer(dialect, { clock });
    });
    after(() => server.close());

    const closeOf = async (url: string, headers: Record<string, string> = server.user.session) => {
      const client = await ListenClient.connect(url, headers);
      return client.waitForClose();
    };

    test('a stream without Authorization is closed with 1008', async () => {
      assert.deepEqual(await closeOf(listenUrl(server.base), {}), {
        code: 1008,
        reason: 'Authorization header not found',
      });
    });

    test('a stream with an invalid token is closed with 1008', async () => {
      assert.deepEqual(await closeOf(listenUrl(server.base), { authorization: 'Bearer nope' }), {
        code: 1008,
        reason: 'Invalid authorization token',
      });
    });

    test("a uid query value is ignored: the stream is the token's user's", async () => {
      const other = await createUser(server.t.ctx);
      const url = listenUrl(server.base, { uid: other.uid, custom_stt: 'enabled' });
      const client = await ListenClient.connect(url, server.user.session);
      client.send(suggest(segment('mine, not theirs', 0, 1)));
      await client.waitFor(() => client.transcripts().length > 0);
      const [session] = await client.waitForEvent('conversation_session');
      assert.equal(client.closed, null);
      await client.close();
      const mine = await server.t.ctx.listen.live.find(server.user.uid, String(session.conversation_id));
      assert.equal(mine?.id, session.conversation_id);
      assert.equal(await server.t.ctx.listen.live.find(other.uid, String(session.conversation_id)), undefined);
    });

    test('an unknown codec is closed with 1003', async () => {
      const closed = await closeOf(listenUrl(server.base, { codec: 'mp3' }));
      assert.equal(closed.code, 1003);
      assert.match(closed.reason, /unsupported codec/);
    });

    test('bare lc3 is closed with 1003: it names no frame duration', async () => {
      const closed = await closeOf(listenUrl(server.base, { codec: 'lc3' }));
      assert.equal(closed.code, 1003);
      assert.match(closed.reason, /lc3_fs1030/);
    });

    test('a value of the wrong type is closed with 1008 naming the field, before any frame', async () => {
      for (const [name, value, kind] of [
        ['sample_rate', 'abc', 'integer'],
        ['channels', '1.5', 'integer'],
        ['conversation_timeout', 'soon', 'integer'],
        ['include_speech_profile', 'maybe', 'boolean'],
      ]) {
        const client = await ListenClient.connect(listenUrl(server.base, { [name]: value }), server.user.session);
        const closed = await client.waitForClose();
        assert.equal(closed.code, 1008, name);
        assert.ok(closed.reason.startsWith(`${name}: Input should be a valid ${kind}`), closed.reason);
        assert.equal(client.frames.length, 0, `${name}: no frame before the close`);
      }
    });

    test('auto and multi are languages', async () => {
      for (const language of ['auto', 'multi', 'pt-BR']) {
        const url = listenUrl(server.base, { language, custom_stt: 'enabled' });
        const client = await ListenClient.connect(url, server.user.session);
        await client.waitForEvent('conversation_session');
        await client.close();
      }
    });

    test('a language that is no language code is closed with 1008', async () => {
      assert.deepEqual(await closeOf(listenUrl(server.base, { language: 'english please' })), {
        code: 1008,
        reason: 'The language is not supported, english please',
      });
    });

    test('an unsupported sample rate is closed with 1003 naming the rate', async () => {
      const closed = await closeOf(listenUrl(server.base, { sample_rate: 16001 }));
      assert.equal(closed.code, 1003);
      assert.match(closed.reason, /16001/);
    });

    test('opus is refused with 1003 at a rate Opus does not have', async () => {
      const closed = await closeOf(listenUrl(server.base, { codec: 'opus', sample_rate: 44100 }));
      assert.equal(closed.code, 1003);
      assert.match(closed.reason, /44100 for opus/);
    });

    test('the text keepalive ping arrives on the ping interval', async () => {
      const client = await ListenClient.connect(listenUrl(server.base, { custom_stt: 'enabled' }), server.user.session);
      await client.waitFor(() => client.frames.filter((f) => f === 'ping').length >= 2, 2000, 'two pings');
      await client.close();
    });

    test('90 s without any frame closes the stream with 1001', async () => {
      const client = await ListenClient.connect(listenUrl(server.base, { custom_stt: 'enabled' }), server.user.session);
      await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      clock.advance(90_001);
      assert.equal((await client.waitForClose()).code, 1001);
    });

    test('frames sent before the session is ready are not lost', async () => {
      const client = new ListenClient(
        new (await import('ws')).default(listenUrl(server.base, { custom_stt: 'enabled' }), {
          headers: server.user.session,
        }),
      );
      client.ws.once('open', () => client.send(suggest(segment('said right away', 0, 1))));
      const [echo] = await client.waitFor(() => (client.transcripts().length > 0 ? client.transcripts() : null));
      assert.equal(echo.text, 'said right away');
      await client.close();
    });

    test('suggested_transcript is ignored unless custom_stt is enabled', async () => {
      const client = await ListenClient.connect(listenUrl(server.base), server.user.session);
      await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      client.send(suggest(segment('should not appear', 0, 1)));
      client.send('not json at all');
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(client.transcripts().length, 0);
      assert.equal(client.closed, null);
      await client.close();
    });

    test('without a transcription provider the stream runs and service_status says why', async () => {
      const client = await ListenClient.connect(listenUrl(server.base), server.user.session);
      const unavailable = await client.waitFor(() =>
        client.events('service_status').find((e) => e.status === 'stt_unavailable'),
      );
      assert.equal(unavailable.reason, 'stt_disabled');
      client.send(Buffer.alloc(3200));
      await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      assert.equal(client.closed, null);
      await client.close();
    });

    describe('web stream', () => {
      const web = () => ListenClient.connect(listenUrl(server.base, { custom_stt: 'enabled' }, '/v4/web/listen'));

      test('a valid first auth message is answered with success and the session starts', async () => {
        const client = await web();
        client.send({ type: 'auth', token: server.user.token, device_id_hash: 'ABC' });
        const [answer] = await client.waitForEvent('auth_response');
        assert.equal(answer.success, true);
        await client.waitForEvent('conversation_session');
        await client.close();
      });

      test('an invalid token gets auth_response false and close 1008', async () => {
        const client = await web();
        client.send({ type: 'auth', token: 'wrong' });
        const [answer] = await client.waitForEvent('auth_response');
        assert.equal(answer.success, false);
        assert.deepEqual(await client.waitForClose(), { code: 1008, reason: 'Invalid token' });
      });

      test('no auth message within the window closes with 1008 Auth timeout', async () => {
        const client = await web();
        assert.deepEqual(await client.waitForClose(), { code: 1008, reason: 'Auth timeout' });
      });

      test('a binary first frame closes with 1008', async () => {
        const client = await web();
        client.send(Buffer.alloc(320));
        assert.deepEqual(await client.waitForClose(), { code: 1008, reason: 'Expected JSON auth message' });
      });

      test('a first message of another type closes with 1008', async () => {
        const client = await web();
        client.send({ type: 'hello' });
        assert.deepEqual(await client.waitForClose(), { code: 1008, reason: 'First message must be auth' });
      });
    });
  });
}
