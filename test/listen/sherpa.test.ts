import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Config } from '../../src/config.js';
import { ListenClient, type ListenServer, listenServer, listenUrl } from './support.js';

const sherpa = (modelDir: string): Config['stt'] => ({
  provider: 'sherpa',
  deepgramApiKey: null,
  deepgramUrl: 'wss://api.deepgram.com',
  baseUrl: null,
  apiKey: null,
  modelDir,
});

async function expectSttFailed(server: ListenServer): Promise<void> {
  const client = await ListenClient.connect(listenUrl(server.base), server.user.session);
  const failed = await client.waitFor(
    () => client.events('service_status').find((e) => e.status === 'stt_failed'),
    15_000,
  );
  assert.deepEqual(
    [failed.provider, failed.reason, failed.outcome, failed.retryable],
    ['sherpa', 'initialization_failed', 'config_error', false],
  );
  assert.equal(
    client.events('service_status').some((e) => e.status === 'ready'),
    false,
  );
  assert.deepEqual(await client.waitForClose(), { code: 1011, reason: 'transcription_service_unavailable' });
}

describe('STT_PROVIDER=sherpa with a wrong STT_MODEL_DIR', () => {
  const servers: ListenServer[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));

  test('a directory that does not exist: stt_failed then 1011; the server keeps serving', async () => {
    const server = await listenServer('sqlite', { config: { stt: sherpa('/nonexistent/keepsake-models') } });
    servers.push(server);
    await expectSttFailed(server);
    await expectSttFailed(server);
  });

  test('files that are not models (the addon would abort on them): stt_failed, the process lives on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keepsake-badmodel-'));
    for (const part of ['encoder', 'decoder', 'joiner'])
      writeFileSync(join(dir, `${part}-epoch-99-avg-1.onnx`), 'not onnx');
    writeFileSync(join(dir, 'tokens.txt'), '<blk> 0\n');
    const server = await listenServer('sqlite', { config: { stt: sherpa(dir) } });
    servers.push(server);
    await expectSttFailed(server);
    // Still alive: a client-transcript stream on the same server works.
    const client = await ListenClient.connect(listenUrl(server.base, { custom_stt: 'enabled' }), server.user.session);
    await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
    await client.close();
  });
});
