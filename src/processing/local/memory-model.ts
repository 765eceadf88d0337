import type { Analysis } from './analysis.js';
import { flag, probability } from './logistic.js';
import { FACT_KINDS, type Fact } from './memory-candidates.js';
import { MEMORY_MODEL } from './memory-model-weights.js';
import { isConditionNoun } from './memory-nouns.js';

/**
 * A small logistic model that decides which candidate facts become memories, and in which order. Its
 * features describe how a fact was found and what shape it has (the mechanism, its category, a name or
 * a number in it, a duration or a habit, a negation, words that tie it to today, a reply to a question,
 * whether it names what the body allows or needs),
 * never which words a case used, so it carries over to conversations it never saw. The weights are
 * trained offline on the dev set (`eval/train-memory-model.ts`) and committed as data.
 */

const CATEGORIES = ['core', 'work', 'hobbies', 'lifestyle', 'habits', 'interests', 'skills', 'learnings'] as const;

export const MEMORY_FEATURE_NAMES = [
  'bias',
  ...FACT_KINDS.map((kind) => `kind_${kind}`),
  ...CATEGORIES.map((category) => `category_${category}`),
  'names_something',
  'words_over_8',
  'duration',
  'frequency',
  'negation',
  'today',
  'relation',
  'pronoun_left',
  'colon',
  'reply_to_question',
  'dialogue',
  'long_sentence',
  'candidates_over_4',
  'health',
] as const;

const DURATION = /\b(?:years?|decades?|months|since|ago|all my life|as a kid|growing up)\b/i;
const FREQUENCY =
  /\b(?:every|always|usually|often|twice|weekly|daily|on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends))\b/i;
const NEGATION = /\b(?:not|never|no longer|n't|anymore)\b/i;
const TODAY =
  /\b(?:today|tonight|tomorrow|yesterday|this (?:morning|afternoon|evening|week)|right now|last night|at the moment)\b/i;
const RELATION =
  /^User's (?:\w+ )?(?:wife|husband|partner|boyfriend|girlfriend|sons?|daughters?|kids?|child|children|twins|mom|mum|mother|dad|father|brothers?|sisters?|grand\w+|cousin|aunt|uncle|niece|nephew|dog|cat|pet|puppy|kitten|household)\b/;
const PRONOUN = /\b(?:he|she|they|him|her|them|it)\b/i;
// What the body allows or needs: an allergy, a diet, a condition WordNet files as one.
const BODY =
  /\b(?:allergic|allergy|allergies|intolerant|intolerance|diabetic|coeliac|celiac|pregnant|vegan|vegetarian)\b/i;

/** The feature vector of one candidate, in MEMORY_FEATURE_NAMES order. */
export function memoryFeatures(fact: Fact, analysis: Analysis, candidates: number): number[] {
  const content = fact.content;
  const rest = content.replace(/^User(?:'s)?\s/, '');
  const sentence = analysis.sentences[fact.order];
  const before = analysis.sentences[fact.order - 1];
  return [
    1,
    ...FACT_KINDS.map((kind) => flag(fact.kind === kind)),
    ...CATEGORIES.map((category) => flag(fact.category === category)),
    flag(/\s(?:\p{Lu}|\d)/u.test(` ${rest}`)),
    Math.min(1, Math.max(0, content.split(' ').length - 8) / 6),
    flag(DURATION.test(content)),
    flag(FREQUENCY.test(content)),
    flag(NEGATION.test(content)),
    // The clause the fact came from, not the whole sentence: "allergic to shellfish, so no lobster tonight".
    flag(TODAY.test(content) || TODAY.test(fact.source)),
    flag(RELATION.test(content)),
    flag(PRONOUN.test(rest)),
    flag(content.includes(':')),
    flag(before !== undefined && !before.isUser && before.text.trim().endsWith('?')),
    flag(analysis.dialogue),
    Math.min(1, Math.max(0, (sentence?.text.split(' ').length ?? 0) - 25) / 25),
    Math.min(1, Math.max(0, candidates - 4) / 8),
    flag(BODY.test(content) || rest.split(/[\s,]+/).some((word) => isConditionNoun(word))),
  ];
}

/** The model's probability that a candidate is a fact worth remembering. */
export function memoryProbability(features: ReadonlyArray<number>): number {
  return probability(features, MEMORY_MODEL.weights);
}

export const MEMORY_THRESHOLD: number = MEMORY_MODEL.threshold;
