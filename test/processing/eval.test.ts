import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadDataset } from '../../eval/dataset.js';
import { EVAL_SETS } from '../../eval/run.js';
import { evaluate } from '../../eval/score.js';
import { createLocalEngine } from '../../src/processing/local/index.js';

// Issue 4 "Measured quality": the local engine's floor on the labeled transcripts.
const TARGETS = { discard: 0.9, category: 0.7, actionItemF1: 0.7, memoryF1: 0.6 };

test('the eval set is large enough and about a quarter of it is discards', () => {
  const cases = loadDataset(EVAL_SETS.dev);
  const discards = cases.filter((evalCase) => evalCase.labels.discard).length;
  assert.ok(cases.length >= 60, String(cases.length));
  assert.ok(discards / cases.length >= 0.2 && discards / cases.length <= 0.3, `${discards}/${cases.length}`);
  assert.equal(new Set(cases.map((evalCase) => evalCase.id)).size, cases.length);
});

// Only the dev set: the held-out set is scored by hand at the end of a session, never by the tests.
test('local engine meets the quality targets on the dev set', async () => {
  const report = await evaluate(createLocalEngine(), loadDataset(EVAL_SETS.dev));
  assert.ok(report.discardAccuracy >= TARGETS.discard, `discard accuracy ${report.discardAccuracy}`);
  assert.ok(report.categoryAccuracy >= TARGETS.category, `category accuracy ${report.categoryAccuracy}`);
  assert.ok(report.actionItems.f1 >= TARGETS.actionItemF1, `action-item F1 ${report.actionItems.f1}`);
  assert.ok(report.memories.f1 >= TARGETS.memoryF1, `memory F1 ${report.memories.f1}`);
});
