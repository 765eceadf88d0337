import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';
import type { TextEngine, TranscriptInput } from '../src/processing/engine.js';
import { createLocalEngine } from '../src/processing/local/index.js';

/**
 * Local text engine throughput. Budgets: a 10,000-word transcript through all four steps in under
 * 200 ms, and 1,000 typical 300-word conversations a minute on one core. The long transcript is also
 * timed, in the same run, on the engine as it was before the redesign (commit 100bb3e, checked out in a
 * temporary git worktree) and on wink's bare tokenizer, and given as ratios.
 */

/** The engine before the redesign of the local engine, the speed reference. */
const BASELINE_COMMIT = '100bb3e';
const REPO = resolve(import.meta.dirname, '..');

const LINES: Array<[boolean, string]> = [
  [false, 'Morning! Did you get a chance to look at the budget for the Lisbon offsite?'],
  [true, "Yes, I'll send the revised numbers to Priya by Friday, the venue quote went up again."],
  [false, 'Can you also book the team dinner for Thursday at seven? Somewhere near the hotel.'],
  [true, "Sure. I live near Alfama, so I know a few places. I'm allergic to shellfish though."],
  [false, 'Noted. The client wants the roadmap presentation moved to next week.'],
  [true, 'That works. I need to update the slides and remind me to call the caterer tomorrow morning.'],
  [false, 'Honestly the coffee machine on the third floor has been broken for weeks.'],
  [true, "I've been running every morning before work, it helps with the stress of the launch."],
  [false, 'We should also think about the hiring plan and whether the design team needs another person.'],
  [true, 'Agreed. Let me draft the job description and share it with Marta on Monday.'],
];

function conversation(words: number, variant: number): TranscriptInput {
  const segments: Array<TranscriptInput['segments'][number]> = [];
  let count = 0;
  for (let i = 0; count < words; i++) {
    const [isUser, line] = LINES[(i + variant) % LINES.length];
    const text = line.replace('Priya', `Priya${variant % 7}`);
    segments.push({ speaker: isUser ? 'SPEAKER_00' : 'SPEAKER_01', isUser, text, start: i * 6, end: i * 6 + 5 });
    count += text.split(' ').length;
  }
  return {
    text: segments.map((segment) => `${segment.speaker}: ${segment.text}`).join('\n'),
    segments,
    startedAt: new Date(Date.UTC(2026, 2, 4, 14, variant % 60)),
    timezone: 'America/New_York',
    language: 'en',
    userName: 'Sam',
  };
}

/** A fresh input object per run, so the per-input parse cache starts cold each time. */
function copyOf(input: TranscriptInput): TranscriptInput {
  return { ...input, segments: input.segments.map((segment) => ({ ...segment })) };
}

async function allSteps(engine: TextEngine, input: TranscriptInput): Promise<void> {
  await engine.decideRelevance(input);
  await engine.structure(input);
  await engine.extractActionItems(input, []);
  await engine.extractMemories(input, []);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

interface Timing {
  /** wall-clock milliseconds */
  wall: number;
  /** CPU milliseconds of the process: what the work costs on one core, whatever else the machine runs */
  cpu: number;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

async function timeMedian(runs: number, action: () => Promise<void> | void): Promise<Timing> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [wallStart, cpuStart] = [performance.now(), cpuMs()];
    await action();
    walls.push(performance.now() - wallStart);
    cpus.push(cpuMs() - cpuStart);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

/** The server's steady state: the JIT has seen the engine's code paths before the timed runs. */
async function warmUp(engine: TextEngine, long: TranscriptInput): Promise<void> {
  for (let i = 0; i < 100; i++) await allSteps(engine, conversation(300, 10_000 + i));
  for (let i = 0; i < 5; i++) await allSteps(engine, copyOf(long));
}

function formatLong(engine: Timing, baseline: Timing): string {
  const verdict = engine.cpu < 200 ? 'met' : 'MISSED';
  return (
    `10,000-word transcript, all four steps: ${engine.cpu.toFixed(1)} ms CPU, ${engine.wall.toFixed(1)} ms wall (median of 9) ` +
    `= ${(engine.cpu / baseline.cpu).toFixed(1)}× wink tokenization of the same text (${baseline.cpu.toFixed(1)} ms CPU); ` +
    `budget 200 ms: ${verdict}`
  );
}

function formatAgainstBefore(engine: Timing, before: Timing | string): string {
  if (typeof before === 'string') return `engine at ${BASELINE_COMMIT}: not measured (${before})`;
  return (
    `same transcript on the engine at ${BASELINE_COMMIT}: ${before.cpu.toFixed(1)} ms CPU; ` +
    `now ${(engine.cpu / before.cpu).toFixed(2)}× that time`
  );
}

/** Times the long transcript on the engine at BASELINE_COMMIT, from a temporary worktree removed afterwards. */
async function timeBefore(long: TranscriptInput): Promise<Timing | string> {
  const dir = mkdtempSync(join(tmpdir(), 'keepsake-engine-before-'));
  const tree = join(dir, 'tree');
  try {
    execFileSync('git', ['-C', REPO, 'worktree', 'add', '--detach', tree, BASELINE_COMMIT], { stdio: 'ignore' });
    symlinkSync(join(REPO, 'node_modules'), join(tree, 'node_modules'));
    const url = pathToFileURL(join(tree, 'src/processing/local/index.ts')).href;
    const module = (await import(url)) as { createLocalEngine: () => TextEngine };
    const before = module.createLocalEngine();
    await warmUp(before, long);
    return await timeMedian(9, () => allSteps(before, copyOf(long)));
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0] : String(error);
  } finally {
    execFileSync('git', ['-C', REPO, 'worktree', 'remove', '--force', tree], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
}

function formatTypical(engineMs: number, baselineMs: number): string {
  const perMinute = Math.floor(60_000 / engineMs);
  return (
    `300-word conversation, all four steps: ${engineMs.toFixed(2)} ms CPU each = ${(engineMs / baselineMs).toFixed(1)}× ` +
    `wink tokenization (${baselineMs.toFixed(2)} ms); ${perMinute} per minute on one core; target 1,000/min: ` +
    (perMinute >= 1000 ? 'met' : 'MISSED')
  );
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const engine = createLocalEngine();
  const tokenizer = winkNLP(model, []);
  const long = conversation(10_000, 0);
  const longText = long.segments.map((segment) => segment.text).join('\n');
  await warmUp(engine, long);
  const longTiming = await timeMedian(9, () => allSteps(engine, copyOf(long)));
  const longBaseline = await timeMedian(9, () => void tokenizer.readDoc(longText).tokens().length());
  const before = await timeBefore(long);

  const typical = Array.from({ length: 1000 }, (_, i) => conversation(300, i));
  const engineStart = cpuMs();
  for (const input of typical) await allSteps(engine, input);
  const typicalMs = (cpuMs() - engineStart) / typical.length;
  const baselineStart = cpuMs();
  for (const input of typical)
    tokenizer
      .readDoc(input.segments.map((segment) => segment.text).join('\n'))
      .tokens()
      .length();
  const typicalBaseline = (cpuMs() - baselineStart) / typical.length;

  return {
    name: 'local text engine',
    lines: [
      formatLong(longTiming, longBaseline),
      formatAgainstBefore(longTiming, before),
      formatTypical(typicalMs, typicalBaseline),
    ],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await run();
  console.log(result.name);
  for (const line of result.lines) console.log(`  ${line}`);
}
