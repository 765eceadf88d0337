// Trains the local engine's memory model on the dev set and writes
// src/processing/local/memory-model-weights.ts. Run: node --import tsx eval/train-memory-model.ts
// Each candidate fact of a kept case is an example, positive when it matches one of the case's labels;
// a two-fold check by case is printed first.
import { join } from 'node:path';
import { analysisOf } from '../src/processing/local/analysis.js';
import { viableCandidates } from '../src/processing/local/memories.js';
import { MEMORY_FEATURE_NAMES, memoryFeatures } from '../src/processing/local/memory-model.js';
import type { EvalCase } from './dataset.js';
import { collectDev, fit, type Proposals, saveModel } from './logistic.js';

function proposals(evalCase: EvalCase): Proposals {
  const analysis = analysisOf(evalCase.input);
  const candidates = viableCandidates(analysis, evalCase.input.userName);
  return {
    labels: evalCase.labels.memories,
    texts: candidates.map((fact) => fact.content),
    features: candidates.map((fact) => memoryFeatures(fact, analysis, candidates.length)),
  };
}

function main(): void {
  const file = join(import.meta.dirname, '../src/processing/local/memory-model-weights.ts');
  saveModel(file, 'MEMORY_MODEL', MEMORY_FEATURE_NAMES, fit(collectDev(proposals), MEMORY_FEATURE_NAMES));
}

main();
