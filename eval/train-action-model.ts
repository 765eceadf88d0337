// Trains the local engine's keep-or-drop model for drafted action items on the dev set and writes
// src/processing/local/action-model-weights.ts. Run: node --import tsx eval/train-action-model.ts
// It first reports a two-fold check (train on one half of the cases, score the other) so a model that
// only memorises the dev set shows up as a gap between the halves.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { draftActionItems, draftFeatures } from '../src/processing/local/action-items.js';
import { FEATURE_NAMES } from '../src/processing/local/action-model.js';
import { loadDataset } from './dataset.js';
import { pairUp } from './matching.js';
import { EVAL_SETS } from './run.js';

interface Example {
  features: number[];
  positive: boolean;
  fold: number;
}

interface Corpus {
  examples: Example[];
  labeled: number[];
}

function foldOf(id: string): number {
  return createHash('sha256').update(id).digest()[0] % 2;
}

function collect(): Corpus {
  const examples: Example[] = [];
  const labeled = [0, 0];
  for (const evalCase of loadDataset(EVAL_SETS.dev)) {
    if (evalCase.labels.discard) continue;
    const fold = foldOf(evalCase.id);
    const { drafts, analysis } = draftActionItems(evalCase.input);
    const pairs = pairUp(
      evalCase.labels.action_items,
      drafts.map((draft) => draft.description),
    );
    labeled[fold] += evalCase.labels.action_items.length;
    drafts.forEach((draft, index) => {
      const features = draftFeatures(draft, analysis, drafts.length);
      examples.push({ features, positive: pairs.includes(index), fold });
    });
  }
  return { examples, labeled };
}

function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

/** Logistic regression by batch gradient descent with a small L2 penalty (bias unpenalised). */
function train(examples: Example[]): number[] {
  const weights = FEATURE_NAMES.map(() => 0);
  const rate = 0.5;
  const l2 = 0.01;
  for (let step = 0; step < 3000; step++) {
    const gradient = weights.map(() => 0);
    for (const example of examples) {
      const predicted = sigmoid(example.features.reduce((sum, value, index) => sum + value * weights[index], 0));
      const error = predicted - (example.positive ? 1 : 0);
      example.features.forEach((value, index) => {
        gradient[index] += error * value;
      });
    }
    weights.forEach((weight, index) => {
      const penalty = index === 0 ? 0 : l2 * weight;
      weights[index] = weight - rate * (gradient[index] / examples.length + penalty);
    });
  }
  return weights;
}

function f1At(examples: Example[], weights: number[], threshold: number, labeled: number): number {
  let kept = 0;
  let matched = 0;
  for (const example of examples) {
    const probability = sigmoid(example.features.reduce((sum, value, index) => sum + value * weights[index], 0));
    if (probability < threshold) continue;
    kept++;
    if (example.positive) matched++;
  }
  const precision = kept === 0 ? 1 : matched / kept;
  const recall = labeled === 0 ? 1 : matched / labeled;
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

function bestThreshold(examples: Example[], weights: number[], labeled: number): number {
  let best = { threshold: 0, f1: -1 };
  for (let threshold = 0.05; threshold <= 0.8; threshold += 0.025) {
    const f1 = f1At(examples, weights, threshold, labeled);
    if (f1 > best.f1) best = { threshold, f1 };
  }
  return best.threshold;
}

function main(): void {
  const { examples, labeled } = collect();
  const foldThresholds: number[] = [];
  for (const held of [0, 1]) {
    const trainSet = examples.filter((example) => example.fold !== held);
    const testSet = examples.filter((example) => example.fold === held);
    const weights = train(trainSet);
    const threshold = bestThreshold(trainSet, weights, labeled[1 - held]);
    foldThresholds.push(threshold);
    const before = f1At(testSet, weights, 0, labeled[held]);
    const after = f1At(testSet, weights, threshold, labeled[held]);
    console.log(
      `fold ${held} held out: F1 of the drafts ${before.toFixed(3)} → with the model ${after.toFixed(3)} (threshold ${threshold.toFixed(3)})`,
    );
  }
  const weights = train(examples);
  // The cut-off is the mean of the ones chosen on each training half, not the best on all of dev.
  const threshold = foldThresholds.reduce((sum, value) => sum + value, 0) / foldThresholds.length;
  const rounded = weights.map((weight) => Math.round(weight * 1000) / 1000);
  for (const [index, name] of FEATURE_NAMES.entries()) console.log(`  ${name.padEnd(24)} ${rounded[index]}`);
  const file = join(import.meta.dirname, '../src/processing/local/action-model-weights.ts');
  writeFileSync(
    file,
    `/** Written by eval/train-action-model.ts; the order of weights follows FEATURE_NAMES in action-model.ts. */\n` +
      `export const ACTION_MODEL = {\n  weights: [${rounded.join(', ')}],\n  threshold: ${Math.round(threshold * 1000) / 1000},\n} as const;\n`,
  );
  console.log(`threshold ${threshold.toFixed(3)}; weights written to ${file}`);
}

main();
