import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'web');

/** Why the browser tests cannot run here, or null when they can. */
export function browserMissing(): string | null {
  return existsSync(CHROMIUM) ? null : `Debian's chromium is not installed (${CHROMIUM}); .ci/run installs it`;
}

/** Why the recording test cannot run here (it needs speech synthesis and recognition), or null. */
export function speechMissing(): string | null {
  const has = (bin: string) => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;
  if (!has('espeak-ng')) return 'espeak-ng is not installed';
  if (!has('pocketsphinx_continuous') || !existsSync('/usr/share/pocketsphinx/model/en-us'))
    return 'pocketsphinx (with pocketsphinx-en-us) is not installed';
  return null;
}

/** Speech rendered by espeak-ng into a WAV file that Chromium plays as its fake microphone. */
export function speechWav(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'keepsake-wav-')), 'speech.wav');
  const result = spawnSync('espeak-ng', ['-s', '140', '-w', file, text]);
  if (result.status !== 0) throw new Error(`espeak-ng failed: ${result.stderr}`);
  return file;
}

/** Headless Chromium at phone size, a fresh profile, the microphone granted and fed from `wav`. */
export async function launchPhoneBrowser(wav: string | null): Promise<BrowserContext> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const args = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
  ];
  if (wav) args.push(`--use-file-for-fake-audio-capture=${wav}`);
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'keepsake-chromium-')), {
    executablePath: CHROMIUM,
    headless: true,
    args,
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 1,
  });
}
