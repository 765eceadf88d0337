// Trains the local engine's title model on the dev set and writes
// src/processing/local/title-model-weights.ts. Run: node --import tsx eval/train-title-model.ts
//
// Each of the first ranked noun phrases of a kept, titled case is an example, positive when it holds
// one of the case's title keywords. First a check across authors: each corpus (one author each) is
// held out in turn, the model is trained on the others, and the held-out corpus's headlines are
// scored with and without it (a headline counts when it holds a title keyword, as `npm run eval` does).
import { join } from 'node:path';
import type { ConversationCategory } from '../src/domain/categories.js';
import { type Analysis, analysisOf } from '../src/processing/local/analysis.js';
import { classify } from '../src/processing/local/category.js';
import { headline } from '../src/processing/local/structure.js';
import { TITLE_CANDIDATES, TITLE_FEATURE_NAMES, titleFeatures } from '../src/processing/local/title-model.js';
import { rankedTopics, type Topic } from '../src/processing/local/topics.js';
import { type EvalCase, loadDataset } from './dataset.js';
import { bestThreshold, type Example, saveModel, train } from './logistic.js';
import { containsKeyword } from './matching.js';
import { EVAL_SETS } from './run.js';

interface Row {
  evalCase: EvalCase;
  author: string;
  analysis: Analysis;
  topics: Topic[];
  category: ConversationCategory;
  subject: ConversationCategory;
  keywords: string[];
  examples: Example[];
}

const holds = (text: string, keywords: string[]) => keywords.some((keyword) => containsKeyword(text, keyword));

function rowsOf(dir: string): Row[] {
  return loadDataset(dir)
    .filter((evalCase) => !evalCase.labels.discard && (evalCase.labels.title_keywords ?? []).length > 0)
    .map((evalCase) => {
      const analysis = analysisOf(evalCase.input);
      const { category, subject } = classify(analysis);
      const topics = rankedTopics(analysis, subject, evalCase.input.userName);
      const keywords = evalCase.labels.title_keywords ?? [];
      const considered = topics.slice(0, TITLE_CANDIDATES);
      const examples = considered.map((topic, rank) => ({
        features: titleFeatures(considered, rank, analysis, subject),
        positive: holds(topic.words.join(' '), keywords),
        fold: 0,
      }));
      return { evalCase, author: evalCase.id[0], analysis, topics, category, subject, keywords, examples };
    });
}

function hitRate(rows: ReadonlyArray<Row>, title: (row: Row) => string): number {
  return rows.filter((row) => holds(title(row), row.keywords)).length / Math.max(1, rows.length);
}

const modelTitle = (weights: number[] | null) => (row: Row) =>
  headline(row.analysis, row.evalCase.input, row.topics, row.category, row.subject, weights);

function main(): void {
  const rows = rowsOf(EVAL_SETS.dev);
  const width = TITLE_FEATURE_NAMES.length;
  const authors = [...new Set(rows.map((row) => row.author))].sort();
  let before = 0;
  let after = 0;
  for (const author of authors) {
    const held = rows.filter((row) => row.author === author);
    const weights = train(
      rows.filter((row) => row.author !== author).flatMap((row) => row.examples),
      width,
    );
    const [rule, model] = [hitRate(held, modelTitle(null)), hitRate(held, modelTitle(weights))];
    before += rule * held.length;
    after += model * held.length;
    console.log(`${author} (${held.length}): ranked topics ${rule.toFixed(3)} → model ${model.toFixed(3)}`);
  }
  console.log(`across authors: ${(before / rows.length).toFixed(3)} → ${(after / rows.length).toFixed(3)}`);
  const examples = rows.flatMap((row) => row.examples);
  const weights = train(examples, width).map((weight) => Math.round(weight * 1000) / 1000);
  const labeled = examples.filter((example) => example.positive).length;
  const threshold = Math.round(bestThreshold(examples, weights, labeled) * 1000) / 1000;
  saveModel(
    join(import.meta.dirname, '../src/processing/local/title-model-weights.ts'),
    'TITLE_MODEL',
    TITLE_FEATURE_NAMES,
    { weights, threshold },
  );
}

main();
