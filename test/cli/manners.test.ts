import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN } from './server-process.js';

// The command line's manners on errors and closed pipes (docs/cli.md).
describe('keepsake command-line manners', () => {
  test('an unknown command is one line on stderr, exit 2, nothing on stdout', () => {
    const res = spawnSync(process.execPath, [BIN, 'frobnicate'], { encoding: 'utf8' });
    assert.equal(res.status, 2);
    assert.equal(res.stdout, '');
    assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
    assert.match(res.stderr, /unknown command "frobnicate".*keepsake --help/);
  });

  test('no command at all is a usage error; --help prints the usage on stdout and exits 0', () => {
    const none = spawnSync(process.execPath, [BIN], { encoding: 'utf8' });
    assert.equal(none.status, 2);
    assert.equal(none.stdout, '');
    const help = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /usage: keepsake <command>/);
  });

  test('an admin command takes --help, and an unknown option is a usage error, not a stack trace', () => {
    const env = { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'keepsake-manners-')) };
    try {
      const help = spawnSync(process.execPath, [BIN, 'admin', 'key', 'create', '--help'], { encoding: 'utf8', env });
      assert.equal(help.status, 0, help.stderr);
      assert.match(help.stdout, /usage: keepsake admin key create --uid UID .*conversations:write/);
      const wrong = spawnSync(process.execPath, [BIN, 'admin', 'key', 'create', '--bogus', 'x'], {
        encoding: 'utf8',
        env,
      });
      assert.equal(wrong.status, 2);
      assert.equal(wrong.stdout, '');
      assert.equal(wrong.stderr.trim().split('\n').length, 1, wrong.stderr);
      assert.match(wrong.stderr, /Unknown option '--bogus'; usage: keepsake admin key create/);
    } finally {
      rmSync(env.DATA_DIR, { recursive: true, force: true });
    }
  });

  test('a reader that closes the pipe early ends the command quietly (exit 0, no EPIPE trace)', async () => {
    const child = spawn(process.execPath, [BIN, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Like `keepsake --help | head -0`: the read end closes before the command writes.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /EPIPE|Error/);
  });
});
