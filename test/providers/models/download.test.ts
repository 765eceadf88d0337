import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { progressText, terminalProgress } from '../../../src/cli/progress.js';
import { downloadFile } from '../../../src/providers/models/download.js';

/** Builds a real .tar.bz2 with the system tar, laid out like a sherpa-onnx streaming release. */
function archive(name: string, files: string[]): Buffer {
  const root = mkdtempSync(join(tmpdir(), 'keepsake-archive-'));
  mkdirSync(join(root, name));
  for (const file of files) writeFileSync(join(root, name, file), `content of ${file}\n`);
  const out = join(root, `${name}.tar.bz2`);
  const tar = spawnSync('tar', ['-cjf', out, '-C', root, name]);
  assert.equal(tar.status, 0, String(tar.stderr));
  return readFileSync(out);
}

const MODEL = [
  'encoder-epoch-99-avg-1.int8.onnx',
  'decoder-epoch-99-avg-1.onnx',
  'joiner-epoch-99-avg-1.int8.onnx',
  'tokens.txt',
];

/** Runs the real command line (asynchronously: the test's HTTP server must keep answering). */
function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve('bin/keepsake.js'), 'models', 'download', ...args], {
      env: { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'keepsake-data-')), LOG_LEVEL: 'silent' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.once('close', (status) => done({ status, stdout, stderr }));
  });
}

describe('keepsake models download', () => {
  let server: Server;
  let base: string;
  const good = archive('sherpa-onnx-streaming-zipformer-test', MODEL);
  const empty = archive('not-a-model', ['README.md']);
  const speaker = Buffer.from('speaker model bytes');
  before(async () => {
    server = createServer((req, res) => {
      const body = { '/good.tar.bz2': good, '/empty.tar.bz2': empty, '/spk.onnx': speaker }[req.url ?? ''];
      if (!body) {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.setHeader('content-length', body.length);
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  test('downloads, checks the SHA-256, unpacks with tar and prints the STT_MODEL_DIR to use', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keepsake-models-'));
    const sha256 = createHash('sha256').update(good).digest('hex');
    const run = await cli([
      '--dir',
      dir,
      '--url',
      `${base}/good.tar.bz2`,
      '--sha256',
      sha256,
      '--speaker-url',
      `${base}/spk.onnx`,
    ]);
    assert.equal(run.status, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    const modelDir = join(dir, 'sherpa-onnx-streaming-zipformer-test');
    assert.equal(out.stt_model_dir, modelDir);
    assert.deepEqual([out.bytes, out.sha256], [good.length, sha256]);
    assert.equal(out.stt_files.encoder, join(modelDir, 'encoder-epoch-99-avg-1.int8.onnx'));
    assert.deepEqual(readdirSync(modelDir).sort(), [...MODEL].sort());
    assert.equal(readFileSync(join(modelDir, 'tokens.txt'), 'utf8'), 'content of tokens.txt\n');
    assert.equal(out.speaker_model, join(dir, 'spk.onnx'));
    assert.deepEqual(readFileSync(out.speaker_model), speaker);
    // Only the model and the speaker file remain: no archive, .part or staging directory.
    assert.deepEqual(readdirSync(dir).sort(), ['sherpa-onnx-streaming-zipformer-test', 'spk.onnx']);
    // Private like the rest of DATA_DIR, whatever modes the archive carried (tar as root keeps them).
    const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
    assert.equal(mode(modelDir), '700');
    for (const file of [...MODEL.map((f) => join(modelDir, f)), out.speaker_model])
      assert.equal(mode(file), '600', file);
    const again = await cli(['--dir', dir, '--url', `${base}/good.tar.bz2`]);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /already exists/);
  });

  test('a SHA-256 mismatch, an HTTP error and an archive without a model fail with one clear line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keepsake-models-'));
    const cases: Array<[string[], RegExp]> = [
      [
        ['--url', `${base}/good.tar.bz2`, '--sha256', '0'.repeat(64)],
        /SHA-256 of good\.tar\.bz2 is [0-9a-f]{64}, expected 0{64}/,
      ],
      [['--url', `${base}/missing.tar.bz2`], /answered HTTP 404/],
      [['--url', `${base}/empty.tar.bz2`], /empty\.tar\.bz2 holds no streaming transducer model/],
    ];
    for (const [args, message] of cases) {
      const run = await cli(['--dir', dir, ...args]);
      assert.equal(run.status, 1);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /^keepsake: models download failed: /);
      assert.match(run.stderr, message);
      assert.equal(run.stderr.trim().split('\n').length, 1);
    }
    assert.deepEqual(readdirSync(dir), [], 'nothing is left behind');
  });

  test('no network: the default directory is DATA_DIR/models and the error says the machine seems offline', async () => {
    // A port that was just closed: connection refused, as without internet.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const run = await cli(['--url', `http://127.0.0.1:${port}/model.tar.bz2`]);
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      /cannot reach http:\/\/127\.0\.0\.1:\d+\/model\.tar\.bz2 \(ECONNREFUSED\); is this machine online\?/,
    );
    assert.equal(existsSync(join(tmpdir(), 'models')), false);
  });

  test('usage errors exit 2', async () => {
    assert.equal((await cli(['--url', 'ftp://example.com/x.tar.bz2'])).status, 2);
    assert.equal((await cli(['--bogus'])).status, 2);
  });

  test('progress: every chunk is reported up to the total the server announced', async () => {
    const seen: Array<[number, number | null]> = [];
    const target = join(mkdtempSync(join(tmpdir(), 'keepsake-models-')), 'model.tar.bz2');
    const got = await downloadFile({ url: `${base}/good.tar.bz2`, sha256: null }, target, (bytes, total) => {
      seen.push([bytes, total]);
    });
    assert.ok(seen.length >= 1, 'seen.length >= 1');
    assert.deepEqual(seen.at(-1), [good.length, good.length]);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i][0] > seen[i - 1][0], 'seen[i][0] > seen[i - 1][0]');
    assert.equal(got.bytes, good.length);
  });
});

describe('download progress on a terminal', () => {
  test('one line rewritten in place on a TTY, nothing when stderr is not a terminal', () => {
    const written: string[] = [];
    const tty = { isTTY: true, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
    const line = terminalProgress('speech model', tty);
    line.report(5 * 1024 * 1024, 20 * 1024 * 1024);
    line.report(20 * 1024 * 1024, 20 * 1024 * 1024);
    line.end();
    assert.match(written[0], /^\rspeech model: 5\.0 MB of 20\.0 MB \(25%\)/);
    assert.match(written[1], /20\.0 MB of 20\.0 MB \(100%\)/);
    assert.equal(written.at(-1), '\n');
    const pipe = { isTTY: false, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
    const quiet = terminalProgress('x', pipe);
    quiet.report(1, 2);
    quiet.end();
    assert.equal(written.length, 3);
    assert.equal(progressText(3 * 1024 * 1024, null), '3.0 MB');
  });
});
