// Start-up (docs/deployment.md): process start to /healthz 200 for `keepsake serve`, and `keepsake --help`,
// from the compiled dist/ against the same sources run through tsx (the start before the build step),
// in the same run. Each figure is the median of several starts on a fresh SQLite data directory.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support.js';

const ROOT = join(import.meta.dirname, '..');
const RUNS = 5;

type Mode = 'compiled' | 'tsx';

/** The command line of `keepsake <args>` in one mode. */
function command(mode: Mode, args: string[]): string[] {
  return mode === 'compiled'
    ? [join(ROOT, 'dist', 'main.js'), ...args]
    : ['--import', 'tsx', join(ROOT, 'src', 'main.ts'), ...args];
}

async function untilHealthy(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error('serve exited before it was healthy');
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function serveStart(mode: Mode): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'keepsake-start-'));
  const port = await freePort();
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), STT_PROVIDER: 'none', LOG_LEVEL: 'warn' };
  const started = performance.now();
  const child = spawn(process.execPath, command(mode, ['serve']), { env, stdio: 'ignore' });
  try {
    await untilHealthy(`http://127.0.0.1:${port}`, child);
    return performance.now() - started;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function helpTime(mode: Mode): number {
  const started = performance.now();
  spawnSync(process.execPath, command(mode, ['--help']), { stdio: 'ignore' });
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function medianOf(measure: () => Promise<number> | number): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < RUNS; i++) values.push(await measure());
  return median(values);
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('dist/ is missing: run npm run build first');
  const lines: string[] = [];
  for (const [what, measure] of [
    ['serve to /healthz 200 (empty SQLite)', serveStart],
    ['keepsake --help', helpTime],
  ] as const) {
    const tsx = await medianOf(() => measure('tsx'));
    const compiled = await medianOf(() => measure('compiled'));
    lines.push(
      `${what}: compiled ${compiled.toFixed(0)} ms, tsx ${tsx.toFixed(0)} ms → ${(tsx / compiled).toFixed(2)}× faster (median of ${RUNS})`,
    );
  }
  return { name: 'start-up', lines };
}
