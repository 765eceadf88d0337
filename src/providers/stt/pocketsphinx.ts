import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pcm16ToWav } from '../audio/wav.js';
import type { VadFactory } from '../vad/port.js';
import { type SttCallbacks, SttFailure, type SttOpenOptions, type SttProvider, type SttSession } from './port.js';
import { UtteranceSession } from './utterances.js';

const NAME = 'pocketsphinx';
const BINARY = 'pocketsphinx_continuous';
// Debian's pocketsphinx-en-us installs its model here; the binary finds it by default.
const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
const TIMEOUT_MS = 60_000;

/** Debian's pocketsphinx (`pocketsphinx` + `pocketsphinx-en-us`), run once per VAD-cut utterance. */
export class PocketsphinxProvider implements SttProvider {
  readonly name = NAME;

  constructor(private readonly vad?: VadFactory) {}

  /** Whether the binary and the English model are installed. */
  static available(): boolean {
    if (!existsSync(MODEL_DIR)) return false;
    const probe = spawnSync(BINARY, ['-help', 'yes'], { stdio: 'ignore', timeout: 5000 });
    return probe.error === undefined;
  }

  async open(options: SttOpenOptions, callbacks: SttCallbacks): Promise<SttSession> {
    if (!options.language.startsWith('en') && options.language !== 'multi' && options.language !== 'auto') {
      throw new SttFailure(
        NAME,
        'initialization_failed',
        'config_error',
        false,
        `pocketsphinx has no model for ${options.language}`,
      );
    }
    return new UtteranceSession(NAME, (pcm) => recognize(pcm, options.sampleRate), callbacks, this.vad);
  }
}

async function recognize(pcm: Buffer, sampleRate: number): Promise<string> {
  const file = join(tmpdir(), `keepsake-ps-${randomUUID()}.wav`);
  // The utterance is the user's speech; the shared temp directory must not expose it.
  await fs.writeFile(file, pcm16ToWav(pcm, sampleRate), { mode: 0o600 });
  try {
    return await run(['-infile', file, '-samprate', String(sampleRate), '-logfn', '/dev/null']);
  } finally {
    await fs.rm(file, { force: true });
  }
}

function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(BINARY, args, { stdio: ['ignore', 'pipe', 'ignore'], timeout: TIMEOUT_MS });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0)
        resolve(
          out
            .split('\n')
            .filter((line) => line.trim() !== '')
            .join(' '),
        );
      else reject(new Error(`${BINARY} exited with code ${code}`));
    });
  });
}
