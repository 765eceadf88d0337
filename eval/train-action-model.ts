// Trains the local engine's keep-or-drop model for drafted action items on the dev set and writes
// src/processing/local/action-model-weights.ts. Run: node --import tsx eval/train-action-model.ts
// It first reports a two-fold check (train on one half of the cases, score the other) so a model that
// only memorises the dev set shows up as a gap between the halves.
import { join } from 'node:path';
import { draftActionItems, draftFeatures } from '../src/processing/local/action-items.js';
import { FEATURE_NAMES } from '../src/processing/local/action-model.js';
import { loadDataset } from './dataset.js';
import { type Corpus, fit, foldOf, saveModel } from './logistic.js';
import { pairUp } from './matching.js';
import { EVAL_SETS } from './run.js';

function collect(): Corpus {
  const corpus: Corpus = { examples: [], labeled: [0, 0] };
  for (const evalCase of loadDataset(EVAL_SETS.dev)) {
    if (evalCase.labels.discard) continue;
    const fold = foldOf(evalCase.id);
    const { drafts, analysis } = draftActionItems(evalCase.input);
    const pairs = pairUp(
      evalCase.labels.action_items,
      drafts.map((draft) => draft.description),
    );
    corpus.labeled[fold] += evalCase.labels.action_items.length;
    drafts.forEach((draft, index) => {
      const features = draftFeatures(draft, analysis, drafts.length);
      corpus.examples.push({ features, positive: pairs.includes(index), fold });
    });
  }
  return corpus;
}

function main(): void {
  const file = join(import.meta.dirname, '../src/processing/local/action-model-weights.ts');
  saveModel(file, 'ACTION_MODEL', FEATURE_NAMES, fit(collect(), FEATURE_NAMES));
}

main();
