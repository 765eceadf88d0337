// Start-up (docs/deployment.md): process start to /healthz 200 for `keepsake serve` on an empty SQLite
// database and on one with 100,000 conversations, `keepsake --help`, and an admin command, from the
// compiled dist/ against the same sources run through tsx (the start before the build step), in the
// same run. Each figure is the median of several starts, each on its own copy of the data directory.
// Beside the wall time, the CPU time the process used (Linux /proc): on a shared machine the wall time
// grows with the load, the CPU time much less.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { seed } from './conversations.bench.js';
import { freePort } from './support.js';

const ROOT = join(import.meta.dirname, '..');
const RUNS = 5;

type Mode = 'compiled' | 'tsx';
/** A data directory for one start: a fresh copy of `template`, or an empty directory. */
type DataDir = { template: string | null };
/** Milliseconds from spawn to done, and the CPU time the process had used by then. */
type Timing = { wall: number; cpu: number };

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime (fields 14, 15) of a live process, or cutime + cstime (16, 17): its reaped children's. */
function cpuMs(pid: number | 'self', children = false): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const at = children ? 13 : 11; // fields counted from the state (field 3)
  return (Number(fields[at]) + Number(fields[at + 1])) * TICK_MS;
}

/** The command line of `keepsake <args>` in one mode. */
function command(mode: Mode, args: string[]): string[] {
  return mode === 'compiled'
    ? [join(ROOT, 'dist', 'main.js'), ...args]
    : ['--import', 'tsx', join(ROOT, 'src', 'main.ts'), ...args];
}

function freshDataDir({ template }: DataDir): string {
  const dir = mkdtempSync(join(tmpdir(), 'keepsake-start-'));
  if (template) cpSync(template, dir, { recursive: true });
  return dir;
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

async function serveStart(mode: Mode, data: DataDir): Promise<Timing> {
  const dataDir = freshDataDir(data);
  const port = await freePort();
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), STT_PROVIDER: 'none', LOG_LEVEL: 'warn' };
  const started = performance.now();
  const child = spawn(process.execPath, command(mode, ['serve']), { env, stdio: 'ignore' });
  try {
    await untilHealthy(`http://127.0.0.1:${port}`, child);
    const wall = performance.now() - started;
    return { wall, cpu: child.pid ? cpuMs(child.pid) : Number.NaN };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs `keepsake <args>` to its end; throws when it fails. */
function cliTime(mode: Mode, args: string[], env: NodeJS.ProcessEnv = process.env): Timing {
  const cpuBefore = cpuMs('self', true);
  const started = performance.now();
  const result = spawnSync(process.execPath, command(mode, args), { env });
  const wall = performance.now() - started;
  if (result.status !== 0) throw new Error(`keepsake ${args.join(' ')} failed: ${result.stderr.toString()}`);
  return { wall, cpu: cpuMs('self', true) - cpuBefore };
}

/** `keepsake admin user create`: opens the database, writes one user, prints it and exits. */
function adminTime(mode: Mode, data: DataDir): Timing {
  const dataDir = freshDataDir(data);
  try {
    const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    return cliTime(mode, ['admin', 'user', 'create', '--name', 'Bench'], env);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function medianOf(measure: () => Promise<Timing> | Timing): Promise<Timing> {
  const timings: Timing[] = [];
  for (let i = 0; i < RUNS; i++) timings.push(await measure());
  return { wall: median(timings.map((t) => t.wall)), cpu: median(timings.map((t) => t.cpu)) };
}

const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${cpus().length} cores`;

export async function run(): Promise<{ name: string; lines: string[] }> {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('dist/ is missing: run npm run build first');
  const seeded = mkdtempSync(join(tmpdir(), 'keepsake-start-seed-'));
  const lines: string[] = [`before: ${load()}`];
  try {
    const seedStart = performance.now();
    await seed(seeded);
    lines.push(`seeded 100,000 conversations in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
    const empty: DataDir = { template: null };
    const large: DataDir = { template: seeded };
    const cases: Array<[string, number, (mode: Mode) => Promise<Timing> | Timing]> = [
      ['serve to /healthz 200, empty SQLite', 1500, (mode) => serveStart(mode, empty)],
      ['serve to /healthz 200, 100,000 conversations', 1500, (mode) => serveStart(mode, large)],
      ['keepsake --help', 300, (mode) => cliTime(mode, ['--help'])],
      ['admin user create, empty SQLite', 1000, (mode) => adminTime(mode, empty)],
      ['admin user create, 100,000 conversations', 1000, (mode) => adminTime(mode, large)],
    ];
    for (const [what, target, measure] of cases) {
      const tsx = await medianOf(() => measure('tsx'));
      const compiled = await medianOf(() => measure('compiled'));
      const verdict = compiled.wall <= target ? 'met' : 'MISSED';
      lines.push(
        `${what}: ${compiled.wall.toFixed(0)} ms (target < ${target} ms: ${verdict}), CPU ${compiled.cpu.toFixed(0)} ms; ` +
          `tsx start ${tsx.wall.toFixed(0)} ms, CPU ${tsx.cpu.toFixed(0)} ms → ${(tsx.wall / compiled.wall).toFixed(2)}× faster (median of ${RUNS})`,
      );
    }
    lines.push(`after: ${load()} (shared machine: the figures grow with the load)`);
    return { name: 'start-up', lines };
  } finally {
    rmSync(seeded, { recursive: true, force: true });
  }
}
