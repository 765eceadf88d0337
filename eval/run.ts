import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { TextEngine } from '../src/processing/engine.js';
import { createLlmEngine } from '../src/processing/llm/index.js';
import { createLocalEngine } from '../src/processing/local/index.js';
import { loadDataset } from './dataset.js';
import { type EvalReport, evaluate } from './score.js';

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/** The figures `npm run eval` prints, one per line. */
export function formatReport(label: string, report: EvalReport): string[] {
  const items = report.actionItems;
  const memories = report.memories;
  return [
    `${label}: ${report.cases} transcripts`,
    `discard accuracy:        ${percent(report.discardAccuracy)}`,
    `category top-1 accuracy: ${percent(report.categoryAccuracy)}  (acceptable: ${percent(report.categoryAcceptable)})`,
    `title has a key word:    ${percent(report.titles.rate)} (${report.titles.matched}/${report.titles.labeled})`,
    `action items:            P ${items.precision.toFixed(2)}  R ${items.recall.toFixed(2)}  F1 ${items.f1.toFixed(2)}  (${items.matched} matched / ${items.extracted} extracted / ${items.labeled} labeled)`,
    `due date within a day:   ${percent(report.dueAccuracy.withinDayRate)} (${report.dueAccuracy.withinDay}/${report.dueAccuracy.total}); exact ${percent(report.dueAccuracy.accuracy)} (${report.dueAccuracy.correct})`,
    `memories:                P ${memories.precision.toFixed(2)}  R ${memories.recall.toFixed(2)}  F1 ${memories.f1.toFixed(2)}  (${memories.matched} matched / ${memories.extracted} extracted / ${memories.labeled} labeled)`,
    `event recall:            ${percent(report.events.recall)} (${report.events.matched}/${report.events.labeled})`,
  ];
}

/** Action-item and memory F1 per input form (`--by-form`, or with `--verbose`). */
export function formatByForm(report: EvalReport): string[] {
  return report.byForm.map(
    (row) =>
      `  ${row.form.padEnd(18)} ${String(row.cases).padStart(3)} kept cases  ` +
      `items F1 ${row.actionItems.f1.toFixed(2)} (${row.actionItems.matched}/${row.actionItems.extracted}/${row.actionItems.labeled})  ` +
      `memories F1 ${row.memories.f1.toFixed(2)} (${row.memories.matched}/${row.memories.extracted}/${row.memories.labeled})`,
  );
}

function engineFrom(values: Record<string, string | boolean | undefined>): TextEngine {
  const local = createLocalEngine();
  if (values.engine !== 'llm') return local;
  if (typeof values['base-url'] !== 'string' || typeof values.model !== 'string') {
    throw new Error('--engine llm needs --base-url and --model');
  }
  return createLlmEngine({
    baseUrl: values['base-url'],
    model: values.model,
    apiKey: typeof values['api-key'] === 'string' ? values['api-key'] : undefined,
    fallback: local,
    onFallback: (step, reason) => console.error(`fallback in ${step}: ${reason}`),
  });
}

/** dev: the labeled set the engine was developed against; holdout: written and labeled later, kept apart. */
export const EVAL_SETS = {
  dev: join(import.meta.dirname, 'transcripts'),
  holdout: join(import.meta.dirname, 'holdout'),
} as const;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string', default: 'local' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key': { type: 'string' },
      verbose: { type: 'boolean', default: false },
      'by-form': { type: 'boolean', default: false },
      set: { type: 'string', default: 'all' },
    },
  });
  const sets = Object.entries(EVAL_SETS).filter(([name]) => values.set === 'all' || values.set === name);
  if (sets.length === 0) throw new Error(`--set is one of all, ${Object.keys(EVAL_SETS).join(', ')}`);
  const engine = engineFrom(values);
  console.log(`engine: ${engine.name}`);
  for (const [name, dir] of sets) {
    const report = await evaluate(engine, loadDataset(dir));
    for (const line of formatReport(name, report)) console.log(line);
    if (values.verbose || values['by-form']) {
      console.log('by input form (matched/extracted/labeled):');
      for (const line of formatByForm(report)) console.log(line);
    }
    if (values.verbose) for (const miss of report.misses) console.log(`  - ${miss}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
