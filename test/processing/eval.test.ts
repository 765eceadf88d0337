import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadDataset } from '../../eval/dataset.js';
import { EVAL_SETS } from '../../eval/run.js';
import { evaluate } from '../../eval/score.js';
import { createLocalEngine } from '../../src/processing/local/index.js';

// Regression floors: just under what the local engine reaches on the dev set, so a change that loses
// ground fails. Where the engine reaches the target (discard 0.90, due date within a day 0.80,
// event recall 0.60) the floor lies above it, so the target holds too. The third blind corpus (I–K)
// joined the dev set in session 9 and lowered every figure: the floors follow the larger set. The
// category floors are in-sample since session 10 (the category model's word counts come from the dev
// set; eval/train-category-model.ts measures it across authors): they fail if the model is not used.
// The fifth blind corpus's dev part (P–S) joined in session 12 and lowered the title figure; the sixth's
// (T–W) joined in session 14 and lowered the title and memory figures again (0.531 and 0.521); the
// seventh's (X–Z) in session 16 lowered them once more (0.525 and 0.54). The ninth's (AD–AF) in session
// 18, written to hold tasks said indirectly, lowered the action-item F1 (0.575 → 0.565) and the title
// figure (0.521 → 0.518). The tenth's (AG–AI) in session 19, scored blind on the whole corpus before
// its dev half joined, lowered the title figure (0.518 → 0.508) while the memory rules of that session
// raised the memory F1 (0.52 → 0.53). The eleventh's (AJ–AL) in session 20 lowered the action-item
// F1 (0.56 → 0.550) and, before the category model was retrained with it, the category figure (0.644).
const FLOORS = {
  discard: 0.97,
  category: 0.65,
  categoryAcceptable: 0.94,
  actionItemF1: 0.54,
  memoryF1: 0.52,
  // Session 13 raised these two with what it reached (0.840 and 0.650).
  dueWithinDay: 0.83,
  eventRecall: 0.64,
  // The title model's headlines (0.531 with the sixth corpus); the topics as ranked give less.
  title: 0.5,
};

test('the dev set is large enough and a seventh to a fifth of it is discards', () => {
  const cases = loadDataset(EVAL_SETS.dev);
  const discards = cases.filter((evalCase) => evalCase.labels.discard).length;
  assert.ok(cases.length >= 300, String(cases.length));
  assert.ok(discards / cases.length >= 0.12 && discards / cases.length <= 0.3, `${discards}/${cases.length}`);
  assert.equal(new Set(cases.map((evalCase) => evalCase.id)).size, cases.length);
});

// Only the dev set: the held-out set is scored by hand at the end of a session, never by the tests.
test('local engine stays above its floors on the dev set', async () => {
  const report = await evaluate(createLocalEngine(), loadDataset(EVAL_SETS.dev));
  assert.ok(report.discardAccuracy >= FLOORS.discard, `discard accuracy ${report.discardAccuracy}`);
  assert.ok(report.categoryAccuracy >= FLOORS.category, `category accuracy ${report.categoryAccuracy}`);
  assert.ok(report.categoryAcceptable >= FLOORS.categoryAcceptable, `acceptable category ${report.categoryAcceptable}`);
  assert.ok(report.actionItems.f1 >= FLOORS.actionItemF1, `action-item F1 ${report.actionItems.f1}`);
  assert.ok(report.memories.f1 >= FLOORS.memoryF1, `memory F1 ${report.memories.f1}`);
  assert.ok(
    report.dueAccuracy.withinDayRate >= FLOORS.dueWithinDay,
    `due within a day ${report.dueAccuracy.withinDayRate}`,
  );
  assert.ok(report.events.recall >= FLOORS.eventRecall, `event recall ${report.events.recall}`);
  assert.ok(report.titles.rate >= FLOORS.title, `title has a key word ${report.titles.rate}`);
});
