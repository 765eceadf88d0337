// Logistic regression for the local engine's small models (action items, memories): batch gradient
// descent with an L2 penalty, a keep threshold chosen for F1, and a two-fold check by case so that a
// model which only memorises its examples shows up as a gap between the halves.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { type EvalCase, loadDataset } from './dataset.js';
import { pairUp } from './matching.js';
import { EVAL_SETS } from './run.js';

export interface Example {
  features: number[];
  positive: boolean;
  /** which half of the cases it came from: a hash of the case id */
  fold: number;
}

export interface Corpus {
  examples: Example[];
  /** labels per fold: the recall denominator, which counts labels no candidate matched */
  labeled: number[];
}

export function foldOf(id: string): number {
  return createHash('sha256').update(id).digest()[0] % 2;
}

function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

function scoreOf(features: number[], weights: number[]): number {
  let sum = 0;
  for (let index = 0; index < features.length; index++) sum += features[index] * weights[index];
  return sigmoid(sum);
}

/** Weights for `width` features; the first feature is the bias, which is not penalised. */
export function train(examples: Example[], width: number, options = { rate: 0.5, l2: 0.01, steps: 3000 }): number[] {
  const weights = new Array<number>(width).fill(0);
  for (let step = 0; step < options.steps; step++) {
    const gradient = new Array<number>(width).fill(0);
    for (const example of examples) {
      const error = scoreOf(example.features, weights) - (example.positive ? 1 : 0);
      example.features.forEach((value, index) => {
        if (value !== 0) gradient[index] += error * value;
      });
    }
    for (let index = 0; index < width; index++) {
      const penalty = index === 0 ? 0 : options.l2 * weights[index];
      weights[index] -= options.rate * (gradient[index] / examples.length + penalty);
    }
  }
  return weights;
}

export function f1At(examples: Example[], weights: number[], threshold: number, labeled: number): number {
  let kept = 0;
  let matched = 0;
  for (const example of examples) {
    if (scoreOf(example.features, weights) < threshold) continue;
    kept++;
    if (example.positive) matched++;
  }
  const precision = kept === 0 ? 1 : matched / kept;
  const recall = labeled === 0 ? 1 : matched / labeled;
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

export function bestThreshold(examples: Example[], weights: number[], labeled: number): number {
  let best = { threshold: 0, f1: -1 };
  for (let threshold = 0.05; threshold <= 0.8; threshold += 0.025) {
    const f1 = f1At(examples, weights, threshold, labeled);
    if (f1 > best.f1) best = { threshold, f1 };
  }
  return best.threshold;
}

/**
 * Trains on each half and scores the other (printed), then on everything. The threshold is the mean of
 * the ones chosen on each training half, not the best on all of dev.
 */
export function fit(
  corpus: Corpus,
  names: ReadonlyArray<string>,
  train_ = train,
): { weights: number[]; threshold: number } {
  const { examples, labeled } = corpus;
  const thresholds: number[] = [];
  for (const held of [0, 1]) {
    const trainSet = examples.filter((example) => example.fold !== held);
    const testSet = examples.filter((example) => example.fold === held);
    const weights = train_(trainSet, names.length);
    const threshold = bestThreshold(trainSet, weights, labeled[1 - held]);
    thresholds.push(threshold);
    const before = f1At(testSet, weights, 0, labeled[held]);
    const after = f1At(testSet, weights, threshold, labeled[held]);
    console.log(
      `fold ${held} held out: F1 of all candidates ${before.toFixed(3)} → with the model ${after.toFixed(3)} (threshold ${threshold.toFixed(3)})`,
    );
  }
  const weights = train_(examples, names.length).map((weight) => Math.round(weight * 1000) / 1000);
  const threshold = Math.round((thresholds.reduce((sum, value) => sum + value, 0) / thresholds.length) * 1000) / 1000;
  return { weights, threshold };
}

/** Prints the weights by feature and writes them as a TypeScript constant the engine imports. */
export function saveModel(
  file: string,
  constant: string,
  names: ReadonlyArray<string>,
  model: { weights: number[]; threshold: number },
): void {
  for (const [index, name] of names.entries()) console.log(`  ${name.padEnd(24)} ${model.weights[index]}`);
  const trainer = `eval/train-${constant.replace(/_MODEL$/, '').toLowerCase()}-model.ts`;
  writeFileSync(
    file,
    `/** Written by ${trainer}; the weights follow the model's feature names in order. */\n` +
      `export const ${constant} = {\n  weights: [${model.weights.join(', ')}],\n  threshold: ${model.threshold},\n} as const;\n`,
  );
  console.log(`threshold ${model.threshold.toFixed(3)}; weights written to ${file}`);
}

/** What one case offers a model: its labels, and the texts and feature vectors of what the engine proposed. */
export interface Proposals {
  labels: Array<{ keywords: string[] }>;
  texts: string[];
  features: number[][];
}

/**
 * The examples of the kept dev cases: each proposal is positive when it matches one of the case's
 * labels (one to one, as the eval scores), and every label counts towards its fold's recall.
 */
export function collectDev(proposalsOf: (evalCase: EvalCase) => Proposals): Corpus {
  const corpus: Corpus = { examples: [], labeled: [0, 0] };
  for (const evalCase of loadDataset(EVAL_SETS.dev)) {
    if (evalCase.labels.discard) continue;
    const fold = foldOf(evalCase.id);
    const { labels, texts, features } = proposalsOf(evalCase);
    const pairs = pairUp(labels, texts);
    corpus.labeled[fold] += labels.length;
    features.forEach((vector, index) => {
      corpus.examples.push({ features: vector, positive: pairs.includes(index), fold });
    });
  }
  return corpus;
}
