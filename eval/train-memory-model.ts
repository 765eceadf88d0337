// Trains the local engine's memory model on the dev set and writes
// src/processing/local/memory-model-weights.ts. Run: node --import tsx eval/train-memory-model.ts
// Each candidate fact of a kept case is an example, positive when it matches one of the case's labels;
// a two-fold check by case is printed first.
import { join } from 'node:path';
import { analysisOf } from '../src/processing/local/analysis.js';
import { viableCandidates } from '../src/processing/local/memories.js';
import { MEMORY_FEATURE_NAMES, memoryFeatures } from '../src/processing/local/memory-model.js';
import { loadDataset } from './dataset.js';
import { type Corpus, fit, foldOf, saveModel } from './logistic.js';
import { pairUp } from './matching.js';
import { EVAL_SETS } from './run.js';

function collect(): Corpus {
  const corpus: Corpus = { examples: [], labeled: [0, 0] };
  for (const evalCase of loadDataset(EVAL_SETS.dev)) {
    if (evalCase.labels.discard) continue;
    const fold = foldOf(evalCase.id);
    const analysis = analysisOf(evalCase.input);
    const candidates = viableCandidates(analysis, evalCase.input.userName);
    const pairs = pairUp(
      evalCase.labels.memories,
      candidates.map((fact) => fact.content),
    );
    corpus.labeled[fold] += evalCase.labels.memories.length;
    candidates.forEach((fact, index) => {
      const features = memoryFeatures(fact, analysis, candidates.length);
      corpus.examples.push({ features, positive: pairs.includes(index), fold });
    });
  }
  return corpus;
}

function main(): void {
  const file = join(import.meta.dirname, '../src/processing/local/memory-model-weights.ts');
  saveModel(file, 'MEMORY_MODEL', MEMORY_FEATURE_NAMES, fit(collect(), MEMORY_FEATURE_NAMES));
}

main();
