import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONVERSATION_CATEGORIES, type ConversationCategory } from '../../domain/categories.js';
import type { Analysis } from './analysis.js';
import { CATEGORY_MODEL } from './category-model-weights.js';
import { lemmaFrequencies } from './keywords.js';
import { flag } from './logistic.js';

/**
 * The category as a small model decides it (DESIGN §2): a softmax over the 33 categories whose
 * features are the evidence the rest of the engine already gathers (the two topic lexicons, the
 * setting cues, who takes part, whether it is a memo, the hand rule's own choice) plus a naive
 * Bayes reading of the conversation's words. The word counts and the weights are trained offline on
 * the dev set (`eval/train-category-model.ts`) and committed as data.
 */

/** What the rest of the engine found, per category; the rule is `classify`'s hand-written decision. */
export interface CategoryEvidence {
  topic: ReadonlyMap<ConversationCategory, number>;
  wordnet: ReadonlyMap<ConversationCategory, number>;
  hand: ReadonlyMap<ConversationCategory, number>;
  setting: ReadonlyMap<ConversationCategory, number>;
  settingChoice: ConversationCategory | undefined;
  kinPresent: boolean;
  rule: ConversationCategory;
  subject: ConversationCategory;
}

export const CATEGORY_FEATURE_NAMES = [
  'topic_share',
  'topic_relative',
  'topic_first',
  'topic_second',
  'topic_log',
  'wordnet_log',
  'hand_log',
  'setting_chosen',
  'setting_relative',
  'setting_log',
  'kin_family',
  'rule',
  'subject',
  'setting_category_dialogue',
  'memo_personal',
  'words_relative',
  'words_posterior',
] as const;

/** Word counts per category: how often a lemma occurs in a dev conversation filed under it. */
export interface WordCounts {
  alpha: number;
  /** words the table knows (the vocabulary size of the smoothing) */
  vocabulary: number;
  /** words counted per category, in CONVERSATION_CATEGORIES order */
  totals: number[];
  /** lemma → [category index, count, category index, count, …] */
  words: Record<string, number[]>;
}

/** How sharply the word posterior separates categories (the mean log-likelihood per word is small). */
const WORDS_SHARPNESS = 20;
const SETTINGS: ReadonlySet<ConversationCategory> = new Set(['work', 'personal', 'family', 'social']);

/** The distinct content lemmas of a conversation: what the word counts are read for. */
export function documentWords(analysis: Analysis): string[] {
  return [...lemmaFrequencies(analysis.sentences).keys()];
}

/** Per category, the mean log-likelihood of the conversation's known words, and the posterior it implies. */
export function wordFeatures(words: ReadonlyArray<string>, table: WordCounts): Array<[number, number]> {
  const categories = CONVERSATION_CATEGORIES.length;
  // Every known word adds log((count + α) / (total + αV)): the part an unseen word would add, plus
  // log((count + α) / α) for the categories that did count it, so only those are visited.
  const sums = new Array<number>(categories).fill(0);
  let known = 0;
  for (const word of words) {
    const entry = table.words[word];
    if (entry === undefined) continue;
    known++;
    for (let index = 0; index < entry.length; index += 2) {
      sums[entry[index]] += Math.log((entry[index + 1] + table.alpha) / table.alpha);
    }
  }
  const means = sums.map((sum, category) => {
    const unseen = Math.log(table.alpha / (table.totals[category] + table.alpha * table.vocabulary));
    return known === 0 ? 0 : sum / known + unseen;
  });
  const best = Math.max(...means);
  const exps = means.map((mean) => Math.exp((mean - best) * WORDS_SHARPNESS));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return means.map((mean, category) => [mean - best, exps[category] / total]);
}

/** The feature vector of every category, in CATEGORY_FEATURE_NAMES order. */
export function categoryFeatures(
  evidence: CategoryEvidence,
  dialogue: boolean,
  words: ReadonlyArray<[number, number]>,
): number[][] {
  const topicTotal = [...evidence.topic.values()].reduce((sum, value) => sum + value, 0) || 1;
  const ranked = [...evidence.topic].sort((a, b) => b[1] - a[1]);
  const topScore = ranked[0]?.[1] || 1;
  const settingTop = Math.max(1, ...evidence.setting.values());
  return CONVERSATION_CATEGORIES.map((category, index) => {
    const topic = evidence.topic.get(category) ?? 0;
    return [
      topic / topicTotal,
      topic / topScore,
      flag(ranked[0]?.[0] === category),
      flag(ranked[1]?.[0] === category),
      Math.log1p(topic),
      Math.log1p(evidence.wordnet.get(category) ?? 0),
      Math.log1p(evidence.hand.get(category) ?? 0),
      flag(evidence.settingChoice === category),
      (evidence.setting.get(category) ?? 0) / settingTop,
      Math.log1p(evidence.setting.get(category) ?? 0),
      flag(evidence.kinPresent && category === 'family'),
      flag(evidence.rule === category),
      flag(evidence.subject === category),
      flag(dialogue && SETTINGS.has(category)),
      flag(!dialogue && category === 'personal'),
      words[index][0],
      words[index][1],
    ];
  });
}

/** A softmax model: one weight per feature, shared by the categories, and a bias per category. */
export interface SoftmaxModel {
  weights: ReadonlyArray<number>;
  biases: ReadonlyArray<number>;
}

/** The probability of each category, in CONVERSATION_CATEGORIES order. */
export function categoryProbabilities(features: ReadonlyArray<ReadonlyArray<number>>, model: SoftmaxModel): number[] {
  const scores = features.map((vector, category) => {
    let sum = model.biases[category] ?? 0;
    for (let index = 0; index < vector.length; index++) sum += vector[index] * (model.weights[index] ?? 0);
    return sum;
  });
  const best = Math.max(...scores);
  const exps = scores.map((score) => Math.exp(score - best));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => value / total);
}

const WORDS_FILE = join(import.meta.dirname, 'lexicons', 'category-words.json');
let table: WordCounts | undefined;

/** The committed word counts, parsed once. */
function wordCounts(): WordCounts {
  table ??= JSON.parse(readFileSync(WORDS_FILE, 'utf8')) as WordCounts;
  return table;
}

/** A setting this sure (a role named in the opening and more cues) was right on 38 of 39 dev conversations. */
const SURE_SETTING = 8;

/**
 * The category: the hand rule's when a setting is sure or when nothing in the conversation names a
 * topic or a word the counts know ('other'), else the model's most probable one.
 */
export function decideCategory(
  evidence: CategoryEvidence,
  probabilities: ReadonlyArray<number>,
  knownWords: number,
): ConversationCategory {
  const sure =
    evidence.settingChoice !== undefined && (evidence.setting.get(evidence.settingChoice) ?? 0) >= SURE_SETTING;
  if (sure || (evidence.rule === 'other' && knownWords === 0)) return evidence.rule;
  let best = 0;
  for (let index = 1; index < probabilities.length; index++) {
    if (probabilities[index] > probabilities[best]) best = index;
  }
  return CONVERSATION_CATEGORIES[best];
}

/** The words of a conversation the counts know. */
export function knownWords(words: ReadonlyArray<string>, table: WordCounts = wordCounts()): number {
  return words.filter((word) => table.words[word] !== undefined).length;
}

/** The category of a conversation given what the engine found in it. */
export function modelCategory(analysis: Analysis, evidence: CategoryEvidence): ConversationCategory {
  const words = documentWords(analysis);
  const features = categoryFeatures(evidence, analysis.dialogue, wordFeatures(words, wordCounts()));
  return decideCategory(evidence, categoryProbabilities(features, CATEGORY_MODEL), knownWords(words));
}
