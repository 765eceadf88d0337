// Trains the local engine's category model on the dev set and writes its word counts
// (src/processing/local/lexicons/category-words.json) and weights (category-model-weights.ts).
// Run: node --import tsx eval/train-category-model.ts
//
// First a check across authors: each corpus of the dev set (A, B, …, one author each) is held out in
// turn, the model is trained on the others, and the held-out corpus's acceptable-category rate is
// printed beside the hand rule's. The word features of a training conversation are always read from
// counts that did not include it (five folds by case), so the softmax learns how far words from
// unseen conversations can be trusted.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONVERSATION_CATEGORIES, type ConversationCategory } from '../src/domain/categories.js';
import { analysisOf } from '../src/processing/local/analysis.js';
import { categoryEvidence } from '../src/processing/local/category.js';
import {
  CATEGORY_FEATURE_NAMES,
  type CategoryEvidence,
  categoryFeatures,
  categoryProbabilities,
  decideCategory,
  documentWords,
  knownWords,
  type SoftmaxModel,
  type WordCounts,
  wordFeatures,
} from '../src/processing/local/category-model.js';
import { loadDataset } from './dataset.js';
import { EVAL_SETS } from './run.js';

const ALPHA = 0.25;
/** A word in one dev conversation only says nothing about its category, only about that conversation. */
const MIN_CONVERSATIONS = 2;
const FOLDS = 5;
const OPTIONS = { rate: 0.5, steps: 1000, l2: 0.01, l2Bias: 0.1 };

interface Row {
  id: string;
  author: string;
  fold: number;
  acceptable: ReadonlySet<ConversationCategory>;
  best: ConversationCategory;
  evidence: CategoryEvidence;
  dialogue: boolean;
  words: string[];
  features: number[][];
}

const CATEGORIES = CONVERSATION_CATEGORIES.length;
const indexOf = (category: ConversationCategory) => CONVERSATION_CATEGORIES.indexOf(category);

function rowsOf(dir: string): Row[] {
  return loadDataset(dir)
    .filter((evalCase) => !evalCase.labels.discard)
    .map((evalCase) => {
      const analysis = analysisOf(evalCase.input);
      return {
        id: evalCase.id,
        author: evalCase.id[0],
        fold: createHash('sha256').update(evalCase.id).digest()[0] % FOLDS,
        acceptable: new Set(evalCase.labels.categories_ok ?? [evalCase.labels.category]),
        best: evalCase.labels.category,
        evidence: categoryEvidence(analysis),
        dialogue: analysis.dialogue,
        words: documentWords(analysis),
        features: [],
      };
    });
}

/** Word counts over the rows: each conversation counts for every category its labels accept. */
function countWords(rows: ReadonlyArray<Row>): WordCounts {
  const seen = new Map<string, number>();
  for (const row of rows) for (const word of row.words) seen.set(word, (seen.get(word) ?? 0) + 1);
  const counts = new Map<string, number[]>();
  const totals = new Array<number>(CATEGORIES).fill(0);
  for (const row of rows) {
    for (const word of row.words) {
      if ((seen.get(word) ?? 0) < MIN_CONVERSATIONS) continue;
      const perCategory = counts.get(word) ?? new Array<number>(CATEGORIES).fill(0);
      counts.set(word, perCategory);
      for (const category of row.acceptable) {
        perCategory[indexOf(category)]++;
        totals[indexOf(category)]++;
      }
    }
  }
  const words: Record<string, number[]> = {};
  for (const [word, perCategory] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    words[word] = perCategory.flatMap((count, category) => (count > 0 ? [category, count] : []));
  }
  return { alpha: ALPHA, vocabulary: counts.size, totals, words };
}

function setFeatures(rows: ReadonlyArray<Row>, table: WordCounts): void {
  for (const row of rows) row.features = categoryFeatures(row.evidence, row.dialogue, wordFeatures(row.words, table));
}

/** Training rows read their words from counts of the other folds only. */
function crossFit(rows: ReadonlyArray<Row>): void {
  for (let fold = 0; fold < FOLDS; fold++) {
    setFeatures(
      rows.filter((row) => row.fold === fold),
      countWords(rows.filter((row) => row.fold !== fold)),
    );
  }
}

/**
 * Batch gradient descent on the softmax's log-likelihood. The target puts half its mass on the best
 * label and spreads the other half over the acceptable ones as the model currently weighs them.
 */
function trainSoftmax(rows: ReadonlyArray<Row>): SoftmaxModel {
  const width = CATEGORY_FEATURE_NAMES.length;
  const weights = new Array<number>(width).fill(0);
  const biases = new Array<number>(CATEGORIES).fill(0);
  for (let step = 0; step < OPTIONS.steps; step++) {
    const gradWeights = new Array<number>(width).fill(0);
    const gradBiases = new Array<number>(CATEGORIES).fill(0);
    for (const row of rows) {
      const probabilities = categoryProbabilities(row.features, { weights, biases });
      const acceptable = [...row.acceptable].map(indexOf);
      const mass = acceptable.reduce((sum, category) => sum + probabilities[category], 0);
      const target = new Array<number>(CATEGORIES).fill(0);
      for (const category of acceptable) target[category] += (0.5 * probabilities[category]) / mass;
      target[indexOf(row.best)] += 0.5;
      for (let category = 0; category < CATEGORIES; category++) {
        const error = probabilities[category] - target[category];
        gradBiases[category] += error;
        row.features[category].forEach((value, index) => {
          gradWeights[index] += error * value;
        });
      }
    }
    for (let index = 0; index < width; index++) {
      weights[index] -= OPTIONS.rate * (gradWeights[index] / rows.length + OPTIONS.l2 * weights[index]);
    }
    for (let category = 0; category < CATEGORIES; category++) {
      biases[category] -= OPTIONS.rate * (gradBiases[category] / rows.length + OPTIONS.l2Bias * biases[category]);
    }
  }
  return { weights, biases };
}

function acceptableRate(rows: ReadonlyArray<Row>, choose: (row: Row) => ConversationCategory): number {
  return rows.filter((row) => row.acceptable.has(choose(row))).length / rows.length;
}

function predicted(row: Row, model: SoftmaxModel, table: WordCounts): ConversationCategory {
  return decideCategory(row.evidence, categoryProbabilities(row.features, model), knownWords(row.words, table));
}

function acrossAuthors(rows: ReadonlyArray<Row>): void {
  let ruleRight = 0;
  let modelRight = 0;
  for (const author of [...new Set(rows.map((row) => row.author))].sort()) {
    const held = rows.filter((row) => row.author === author);
    const rest = rows.filter((row) => row.author !== author);
    crossFit(rest);
    const table = countWords(rest);
    setFeatures(held, table);
    const model = trainSoftmax(rest);
    const rule = acceptableRate(held, (row) => row.evidence.rule);
    const learned = acceptableRate(held, (row) => predicted(row, model, table));
    ruleRight += rule * held.length;
    modelRight += learned * held.length;
    console.log(
      `corpus ${author} held out (${held.length}): hand rule ${rule.toFixed(3)} → model ${learned.toFixed(3)}`,
    );
  }
  console.log(
    `all corpora, each held out: hand rule ${(ruleRight / rows.length).toFixed(3)} → model ${(modelRight / rows.length).toFixed(3)}`,
  );
}

const round = (value: number) => Math.round(value * 1000) / 1000;

function main(): void {
  const rows = rowsOf(EVAL_SETS.dev);
  acrossAuthors(rows);
  crossFit(rows);
  const model = trainSoftmax(rows);
  const table = countWords(rows);
  for (const [index, name] of CATEGORY_FEATURE_NAMES.entries())
    console.log(`  ${name.padEnd(26)} ${round(model.weights[index])}`);
  const local = join(import.meta.dirname, '../src/processing/local');
  writeFileSync(join(local, 'lexicons/category-words.json'), `${JSON.stringify(table)}\n`);
  writeFileSync(
    join(local, 'category-model-weights.ts'),
    '/** Written by eval/train-category-model.ts: weights follow CATEGORY_FEATURE_NAMES, biases the categories. */\n' +
      `export const CATEGORY_MODEL = {\n  weights: [${model.weights.map(round).join(', ')}],\n` +
      `  biases: [${model.biases.map(round).join(', ')}],\n} as const;\n`,
  );
  console.log(`${table.vocabulary} words counted; model written to ${local}`);
}

main();
