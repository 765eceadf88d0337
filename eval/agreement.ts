// Scores a second reader's answers against the dev labels with the eval's own scorer, to measure how
// far two careful human readers agree: the ceiling any engine's figures are read against.
// Run: node --import tsx eval/agreement.ts [answers.json …]   (default: eval/readers/answers-*.json)
// Each answers file is an array of { id, discard, category, title, action_items: [{ description, due }],
// memories: [string], events: [{ title, date }] }, written by a reader who saw only the transcripts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConversationCategory } from '../src/domain/categories.js';
import type { TextEngine, TranscriptInput } from '../src/processing/engine.js';
import { createLocalEngine } from '../src/processing/local/index.js';
import { parseNaiveLocal } from '../src/processing/local/timezone.js';
import { loadDataset } from './dataset.js';
import { EVAL_SETS, formatReport } from './run.js';
import { evaluate } from './score.js';

interface Answer {
  id: string;
  discard: boolean;
  category: ConversationCategory;
  title: string;
  action_items: Array<{ description: string; due: string | null }>;
  memories: string[];
  events: Array<{ title: string; date: string | null }>;
}

function readerEngine(answers: Map<TranscriptInput, Answer>): TextEngine {
  const of = (input: TranscriptInput): Answer => {
    const answer = answers.get(input);
    if (answer === undefined) throw new Error('no answer for a transcript');
    return answer;
  };
  return {
    name: 'second reader',
    decideRelevance: async (input) => ({
      verdict: of(input).discard ? 'discard' : 'keep',
      decidedBy: 'reader',
      reason: 'reader',
    }),
    structure: async (input) => ({
      title: of(input).title,
      overview: '',
      category: of(input).category,
      emoji: '',
      events: of(input).events.map((event) => ({
        title: event.title,
        description: '',
        start: (event.date && parseNaiveLocal(event.date, input.timezone)) || input.startedAt,
        duration: 30,
      })),
    }),
    extractActionItems: async (input) =>
      of(input).action_items.map((item) => ({
        description: item.description,
        dueAt: item.due ? parseNaiveLocal(item.due, input.timezone) : null,
      })),
    extractMemories: async (input) =>
      of(input)
        .memories.slice(0, 4)
        .map((content) => ({ content, category: 'core' as const, tags: [] })),
  };
}

async function main(): Promise<void> {
  const given = process.argv.slice(2);
  const readers = join(import.meta.dirname, 'readers');
  const files =
    given.length > 0
      ? given
      : readdirSync(readers)
          .filter((name) => /^answers-.*\.json$/.test(name))
          .map((name) => join(readers, name));
  const answers = files.flatMap((file) => JSON.parse(readFileSync(file, 'utf8')) as Answer[]);
  const byId = new Map(answers.map((answer) => [answer.id, answer]));
  const cases = loadDataset(EVAL_SETS.dev).filter((evalCase) => byId.has(evalCase.id));
  const engine = readerEngine(new Map(cases.map((evalCase) => [evalCase.input, byId.get(evalCase.id) as Answer])));
  for (const line of formatReport('second reader', await evaluate(engine, cases))) console.log(line);
  const ids = new Set(cases.map((evalCase) => evalCase.id));
  const same = loadDataset(EVAL_SETS.dev).filter((evalCase) => ids.has(evalCase.id));
  for (const line of formatReport('local engine, same cases', await evaluate(createLocalEngine(), same)))
    console.log(line);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
