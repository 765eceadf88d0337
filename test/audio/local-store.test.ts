import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { LocalAudioStore } from '../../src/audio/store.js';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('local audio store', () => {
  const root = mkdtempSync(join(tmpdir(), 'keepsake-audio-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  test('audio files are 0600 and their directories 0700, whatever the process umask', async () => {
    const previous = process.umask(0o022);
    try {
      const store = new LocalAudioStore(join(root, 'audio'));
      await store.put('user-1/conv-1/parts/p1.pcm', Buffer.alloc(320));
      await store.writeAt('user-1/conv-1/parts/p1.pcm', 320, Buffer.alloc(320));
      assert.equal(modeOf(join(root, 'audio', 'user-1', 'conv-1', 'parts', 'p1.pcm')), '600');
      for (const dir of ['audio', 'audio/user-1', 'audio/user-1/conv-1', 'audio/user-1/conv-1/parts']) {
        assert.equal(modeOf(join(root, dir)), '700', dir);
      }
      assert.equal((await store.get('user-1/conv-1/parts/p1.pcm'))?.length, 640);
    } finally {
      process.umask(previous);
    }
  });
});
