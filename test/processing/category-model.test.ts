import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CONVERSATION_CATEGORIES, type ConversationCategory } from '../../src/domain/categories.js';
import {
  CATEGORY_FEATURE_NAMES,
  type CategoryEvidence,
  categoryFeatures,
  categoryProbabilities,
  decideCategory,
  type WordCounts,
  wordFeatures,
} from '../../src/processing/local/category-model.js';
import { CATEGORY_MODEL } from '../../src/processing/local/category-model-weights.js';

const TABLE_FILE = join(import.meta.dirname, '../../src/processing/local/lexicons/category-words.json');
const at = (category: ConversationCategory) => CONVERSATION_CATEGORIES.indexOf(category);

function evidence(overrides: Partial<CategoryEvidence> = {}): CategoryEvidence {
  return {
    topic: new Map(),
    wordnet: new Map(),
    hand: new Map(),
    setting: new Map(),
    settingChoice: undefined,
    kinPresent: false,
    rule: 'other',
    subject: 'other',
    ...overrides,
  };
}

/** Probabilities that make `category` the model's choice. */
function favouring(category: ConversationCategory): number[] {
  return CONVERSATION_CATEGORIES.map((each) => (each === category ? 0.9 : 0.1 / 32));
}

test('the committed word counts are consistent: categories in range, totals and vocabulary add up', () => {
  const table = JSON.parse(readFileSync(TABLE_FILE, 'utf8')) as WordCounts;
  const totals = new Array<number>(CONVERSATION_CATEGORIES.length).fill(0);
  for (const [word, entry] of Object.entries(table.words)) {
    assert.equal(entry.length % 2, 0, word);
    for (let index = 0; index < entry.length; index += 2) {
      assert.ok(Number.isInteger(entry[index]) && entry[index] >= 0 && entry[index] < totals.length, word);
      assert.ok(entry[index + 1] > 0, word);
      totals[entry[index]] += entry[index + 1];
    }
  }
  assert.deepEqual(table.totals, totals);
  assert.equal(table.vocabulary, Object.keys(table.words).length);
  assert.ok(table.vocabulary > 1000, String(table.vocabulary));
  assert.ok(table.alpha > 0, 'table.alpha > 0');
});

test('the committed weights match the features and the categories', () => {
  assert.equal(CATEGORY_MODEL.weights.length, CATEGORY_FEATURE_NAMES.length);
  assert.equal(CATEGORY_MODEL.biases.length, CONVERSATION_CATEGORIES.length);
});

test('words counted under one category make it the most probable reading of the words', () => {
  const table: WordCounts = {
    alpha: 0.25,
    vocabulary: 3,
    totals: CONVERSATION_CATEGORIES.map((category) => (category === 'music' ? 10 : category === 'finance' ? 10 : 0)),
    words: { chord: [at('music'), 6], tempo: [at('music'), 4], invoice: [at('finance'), 10] },
  };
  const features = wordFeatures(['chord', 'tempo', 'unknown'], table);
  const posteriors = features.map(([, posterior]) => posterior);
  assert.equal(posteriors.indexOf(Math.max(...posteriors)), at('music'));
  assert.equal(features[at('music')][0], 0, 'the best category reads 0 relative to itself');
  assert.ok(features[at('finance')][0] < 0, "features[at('finance')][0] < 0");
  assert.ok(
    Math.abs(posteriors.reduce((sum, value) => sum + value, 0) - 1) < 1e-9,
    'Math.abs(posteriors.reduce((sum, value) => sum + value, 0) - 1) < 1e-9',
  );
  // No known word: every category reads the same.
  const none = wordFeatures(['unknown'], table).map(([relative]) => relative);
  assert.ok(
    none.every((value) => value === 0),
    'none.every((value) => value === 0)',
  );
});

test('the softmax gives probabilities that sum to one and follow the weighted evidence', () => {
  const features = categoryFeatures(
    evidence({ topic: new Map([['health', 6]]), rule: 'health', subject: 'health' }),
    true,
    CONVERSATION_CATEGORIES.map(() => [0, 1 / CONVERSATION_CATEGORIES.length]),
  );
  assert.equal(features[0].length, CATEGORY_FEATURE_NAMES.length);
  const probabilities = categoryProbabilities(features, CATEGORY_MODEL);
  assert.ok(
    Math.abs(probabilities.reduce((sum, value) => sum + value, 0) - 1) < 1e-9,
    'Math.abs(probabilities.reduce((sum, value) => sum + value, 0) - 1) < 1e-9',
  );
  assert.equal(probabilities.indexOf(Math.max(...probabilities)), at('health'));
});

test('a sure setting keeps the hand rule; a weak one leaves the choice to the model', () => {
  const sure = evidence({ setting: new Map([['personal', 9]]), settingChoice: 'personal', rule: 'personal' });
  assert.equal(decideCategory(sure, favouring('sports'), 10), 'personal');
  const weak = evidence({ setting: new Map([['personal', 5]]), settingChoice: 'personal', rule: 'personal' });
  assert.equal(decideCategory(weak, favouring('sports'), 10), 'sports');
});

test('nothing that names a topic and no known word is other; known words let the model decide', () => {
  assert.equal(decideCategory(evidence(), favouring('personal'), 0), 'other');
  assert.equal(decideCategory(evidence(), favouring('personal'), 3), 'personal');
});
