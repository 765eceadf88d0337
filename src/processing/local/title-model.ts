import type { ConversationCategory } from '../../domain/categories.js';
import type { Analysis } from './analysis.js';
import { isEventNoun } from './event-words.js';
import { flag, probability } from './logistic.js';
import { KIN } from './memory-shapes.js';
import { nounKind } from './noun-kinds.js';
import { isSettingCue } from './setting.js';
import { TITLE_MODEL } from './title-model-weights.js';
import { topicWeights } from './topic-lexicon.js';
import type { Topic } from './topics.js';

/**
 * A small logistic model that picks which of the ranked noun phrases a headline should name. Its
 * features describe a phrase's place in the talk (salience, rank, who said it, when, how often) and
 * the kind of thing its head word names (WordNet's lexicographer file: an act such as "handover", a
 * communication such as "call", a person, a time), never the words themselves. Trained offline on the
 * dev set's title keywords (`eval/train-title-model.ts`), weights committed as data.
 */

const NOUN_KINDS = [
  'act',
  'attribute',
  'cognition',
  'communication',
  'event',
  'feeling',
  'group',
  'location',
  'person',
  'quantity',
  'state',
  'time',
] as const;

export const TITLE_FEATURE_NAMES = [
  'bias',
  'share_of_best',
  'rank_1',
  'rank_2',
  'rank_3',
  'mentions',
  'both_speakers',
  'two_words',
  'three_words',
  'name',
  'relative',
  'governed_by_verb',
  'opening',
  'position',
  'event_noun',
  'setting_cue',
  'in_category',
  'any_topic',
  ...NOUN_KINDS.map((kind) => `kind_${kind}`),
] as const;

/** How many of the ranked phrases the model considers: further down, none is ever a headline. */
export const TITLE_CANDIDATES = 12;

/** The feature vector of the topic at `rank`, in TITLE_FEATURE_NAMES order. */
export function titleFeatures(
  topics: ReadonlyArray<Topic>,
  rank: number,
  analysis: Analysis,
  category: ConversationCategory,
): number[] {
  const topic = topics[rank];
  const head = topic.lemmas.at(-1) ?? '';
  const sentences = Math.max(1, analysis.sentences.length);
  const named = topic.words.every((word) => /^\p{Lu}/u.test(word)) && topic.display !== topic.display.toLowerCase();
  const weights = topicWeights(head, 'n');
  const kind = nounKind(head);
  return [
    1,
    topics[0].score > 0 ? topic.score / topics[0].score : 0,
    flag(rank === 0),
    flag(rank === 1),
    flag(rank === 2),
    Math.min(1, Math.log1p(topic.mentions) / 3),
    flag(topic.speakers >= 2),
    flag(topic.words.length === 2),
    flag(topic.words.length >= 3),
    flag(named),
    flag(topic.words.length === 1 && KIN.test(head)),
    flag(topic.verbs.size > 0),
    flag(topic.first < Math.max(2, Math.ceil(sentences * 0.2))),
    topic.first / sentences,
    flag(isEventNoun(head)),
    flag(isSettingCue(topic.lemmas.join(' ')) || isSettingCue(head)),
    weights.find((entry) => entry.category === category)?.weight ?? 0,
    Math.max(0, ...weights.map((entry) => entry.weight)),
    ...NOUN_KINDS.map((name) => flag(kind === name)),
  ];
}

/**
 * The topics a headline should name, best first: the first TITLE_CANDIDATES reordered by the model,
 * each scored by its probability (so the headline's share rule compares probabilities).
 */
export function titleTopics(
  topics: ReadonlyArray<Topic>,
  analysis: Analysis,
  category: ConversationCategory,
  weights: ReadonlyArray<number> = TITLE_MODEL.weights,
): Topic[] {
  const considered = topics.slice(0, TITLE_CANDIDATES);
  return considered
    .map((topic, rank) => ({
      ...topic,
      score: probability(titleFeatures(considered, rank, analysis, category), weights),
    }))
    .sort((a, b) => b.score - a.score || a.first - b.first);
}
