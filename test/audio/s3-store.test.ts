import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { S3Error } from '../../src/audio/s3.js';
import { S3AudioStore } from '../../src/audio/s3-store.js';
import { type FakeS3, startFakeS3 } from './fake-s3.js';

/** The S3 adapter of the audio store (AUDIO_STORE=s3) against an S3 server that checks SigV4. */

const bucket = 'keepsake-audio';
const credentials = { region: 'eu-west-3', accessKeyId: 'AKIDKEEPSAKE', secretAccessKey: 'sekrit/with+chars=' };

describe('S3 audio store', () => {
  let s3: FakeS3;
  let store: S3AudioStore;
  const open = (overrides: { secretAccessKey?: string } = {}) =>
    new S3AudioStore(
      { bucket, endpoint: s3.endpoint, forcePathStyle: true, prefix: 'prod/audio', ...credentials, ...overrides },
      () => Date.now(),
    );
  before(async () => {
    s3 = await startFakeS3({ bucket, ...credentials, pageSize: 3 });
    store = open();
  });
  after(() => s3.stop());

  const text = async (stream: AsyncIterable<unknown>) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks).toString();
  };

  test('put, get, size, ranged read and writeAt, under the prefix, every request signed', async () => {
    await store.put('u1/c1/parts/a.pcm', Buffer.from('hello world'));
    assert.deepEqual([...s3.objects.keys()], ['prod/audio/u1/c1/parts/a.pcm']);
    assert.equal((await store.get('u1/c1/parts/a.pcm'))?.toString(), 'hello world');
    assert.equal(await store.size('u1/c1/parts/a.pcm'), 11);
    assert.equal(await text(await store.stream('u1/c1/parts/a.pcm', 6, 10)), 'world');
    await store.writeAt('u1/c1/parts/a.pcm', 5, Buffer.from(', S3'));
    assert.equal(s3.objects.get('prod/audio/u1/c1/parts/a.pcm')?.toString(), 'hello, S3');
    // A retried write at the same offset does not duplicate bytes.
    await store.writeAt('u1/c1/parts/a.pcm', 5, Buffer.from(', S3'));
    assert.equal(s3.objects.get('prod/audio/u1/c1/parts/a.pcm')?.toString(), 'hello, S3');
    assert.equal(await store.get('u1/c1/parts/missing.pcm'), null);
    assert.equal(await store.size('u1/c1/parts/missing.pcm'), null);
    assert.equal(s3.rejected, 0);
  });

  test('delete, and a prefix delete that pages through the listing', async () => {
    for (let i = 0; i < 7; i++) await store.put(`u1/c2/parts/p${i}.pcm`, Buffer.from([i]));
    await store.put('u1/c20/parts/keep.pcm', Buffer.from('other conversation'));
    await store.delete('u1/c2/parts/p0.pcm');
    await store.delete('u1/c2/parts/p0.pcm'); // already gone: fine
    assert.equal(s3.objects.has('prod/audio/u1/c2/parts/p0.pcm'), false);
    await store.deletePrefix('u1/c2');
    const left = [...s3.objects.keys()].filter((k) => k.includes('/c2'));
    assert.deepEqual(left, ['prod/audio/u1/c20/parts/keep.pcm']);
    assert.ok(s3.log.filter((l) => l.startsWith('GET ?')).length >= 2, 'listing continued over pages');
  });

  test('a wrong secret is refused by the server and reported with S3’s code', async () => {
    const wrong = open({ secretAccessKey: 'not-the-secret' });
    await assert.rejects(wrong.put('u1/c3/a.pcm', Buffer.from('x')), (err: unknown) => {
      assert.ok(err instanceof S3Error, 'err instanceof S3Error');
      assert.match(err.message, /answered 403 SignatureDoesNotMatch to PUT u1\/c3\/a\.pcm/);
      return true;
    });
    assert.equal(s3.objects.has('prod/audio/u1/c3/a.pcm'), false);
  });

  test('an unreachable bucket is one clear error', async () => {
    await s3.stop();
    try {
      await assert.rejects(
        store.get('u1/c1/parts/a.pcm'),
        /audio bucket unreachable at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
      );
      await assert.rejects(store.stream('u1/c1/parts/a.pcm', 0, 3), S3Error);
    } finally {
      await s3.start();
    }
    assert.equal((await store.get('u1/c1/parts/a.pcm'))?.toString(), 'hello, S3');
  });
});
