import type { Candidate } from './action-cues.js';
import { ACTION_MODEL } from './action-model-weights.js';
import type { Analysis } from './analysis.js';
import { herIsObject } from './antecedent.js';
import { flag, probability } from './logistic.js';
import { acceptedByWearer } from './task-outcome.js';
import { LIGHT_VERBS, TASK_VERBS } from './vocabulary.js';

/**
 * A small logistic model that decides whether a drafted to-do is kept. Its features describe how the
 * task was said (cue kind and strength, who spoke, a question, a date, a pronoun left in the line,
 * its length), never which words a case used, so it carries over to conversations it never saw. The
 * weights are trained offline on the dev set (`eval/train-action-model.ts`) and committed as data.
 */

export const FEATURE_NAMES = [
  'bias',
  'kind_commitment',
  'kind_request',
  'kind_reminder',
  'kind_imperative',
  'strength_strong',
  'strength_medium',
  'strength_weak',
  'strength_planned',
  'said_by_wearer',
  'dialogue',
  'has_due',
  'deadline',
  'task_verb',
  'light_verb',
  'words_over_10',
  'pronoun_left',
  'name_inside',
  'from_question',
  'we_in_sentence',
  'you_in_sentence',
  'digits',
  'sentence_words_over_20',
  'drafts_over_5',
  'wearer_accepts',
  'told_to',
] as const;

// "I want you to keep a headache diary", "you need to bring two photos": the wearer is told, not asked.
const TOLD_TO =
  /\b(?:i want you to|i'd like you to|i need you to|you need to|you have to|you must|you should|you'll need to|you've got to|make sure you|remember to|don't forget to)\b/i;

const PRONOUN = /^(?:it|them|that|this|him|those|these)$/i;

/** A pronoun left in the line after the verb ("her" counts only as an object, not in "her onboarding"). */
function pronounLeft(words: string[]): boolean {
  return words.some((word, index) => {
    const bare = word.replace(/[^\p{L}']+$/u, '');
    return PRONOUN.test(bare) || (bare.toLowerCase() === 'her' && herIsObject(words[index + 1]));
  });
}

export interface DraftSignal {
  candidate: Candidate;
  description: string;
  hasDue: boolean;
  /** a date introduced by "by", "before", "until": the shape of a deadline */
  deadline: boolean;
}

/** The feature vector of one draft, in FEATURE_NAMES order. */
export function featuresOf(signal: DraftSignal, analysis: Analysis, draftCount: number): number[] {
  const { candidate, description } = signal;
  const words = description.split(' ');
  const verb = (words[0] ?? '').toLowerCase();
  const sentence = candidate.sentence.text;
  return [
    1,
    flag(candidate.kind === 'commitment'),
    flag(candidate.kind === 'request'),
    flag(candidate.kind === 'reminder'),
    flag(candidate.kind === 'imperative'),
    flag(candidate.strength === 'strong'),
    flag(candidate.strength === 'medium'),
    flag(candidate.strength === 'weak'),
    flag(candidate.strength === 'planned'),
    flag(candidate.sentence.isUser),
    flag(analysis.dialogue),
    flag(signal.hasDue),
    flag(signal.deadline),
    // A verb the cue implies ("I'm starting you on apixaban" → "Take", "I need your payslips" → "Send")
    // names the deliverable by construction: a task verb, never a light one.
    flag(TASK_VERBS.has(verb) || candidate.impliedVerb !== undefined),
    flag(LIGHT_VERBS.has(verb) && candidate.impliedVerb === undefined),
    Math.min(1, Math.max(0, words.length - 10) / 5),
    flag(pronounLeft(words.slice(1))),
    flag(words.slice(1).some((word) => /^\p{Lu}\p{Ll}/u.test(word))),
    flag(sentence.trim().endsWith('?')),
    flag(/\b(?:we|we'll|we're|us|let's)\b/i.test(sentence)),
    flag(/\byou\b/i.test(sentence)),
    flag(/\d/.test(description)),
    Math.min(1, Math.max(0, sentence.split(' ').length - 20) / 20),
    Math.min(1, Math.max(0, draftCount - 5) / 10),
    // Someone else's request the wearer's next turn takes on ("Will do.").
    flag(!candidate.sentence.isUser && acceptedByWearer(candidate, analysis)),
    flag(!candidate.sentence.isUser && TOLD_TO.test(sentence)),
  ];
}

/** The model's probability that the draft is a real task. */
export function taskProbability(features: number[], weights: ReadonlyArray<number> = ACTION_MODEL.weights): number {
  return probability(features, weights);
}

/** Kept when the model is at least as sure as the threshold chosen on the training folds. */
export function keepsTask(features: number[]): boolean {
  return taskProbability(features) >= ACTION_MODEL.threshold;
}
