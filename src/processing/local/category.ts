import type { ConversationCategory } from '../../domain/categories.js';
import type { Analysis } from './analysis.js';
import { handLexiconScores } from './category-hand.js';
import { type CategoryEvidence, modelCategory } from './category-model.js';
import { isContentToken, isIdiom, lemmaOf } from './keywords.js';
import type { Token } from './nlp.js';
import { kinPresent, settingOf, settingScores } from './setting.js';
import { type LexiconPos, topicWeights } from './topic-lexicon.js';

const POS_OF_TAG: Record<string, LexiconPos> = { NOUN: 'n', VERB: 'v', ADJ: 'a' };
/** Nouns name topics; verbs and adjectives only lean ("invest", "legal"), and everyday verbs reach many topics. */
const POS_FACTOR: Record<LexiconPos, number> = { n: 1, v: 0.2, a: 0.2 };
/** Below this there is no real evidence and the category stays 'other'. */
const MIN_EVIDENCE = 0.5;
const HAND_FACTOR = 1;

interface Term {
  word: string;
  pos: LexiconPos;
  count: number;
}

/** wink tags a capitalised first word as a name ("Doctors recommend…"); names elsewhere are not topics. */
function lexiconPos(token: Token, index: number): LexiconPos | undefined {
  if (token.pos === 'PROPN') return index === 0 && topicWeights(token.normal, 'n').length > 0 ? 'n' : undefined;
  return POS_OF_TAG[token.pos];
}

/** The word as the lexicon lists it: the lemma, unless wink's lemmatiser mangled a known word ("dentist" → "den"). */
function lexiconForm(token: Token, pos: LexiconPos): string {
  return topicWeights(token.normal, pos).length > 0 ? token.normal : lemmaOf(token);
}

/** The content words and two-word compounds of a conversation, each with how often it occurs. */
function termsOf(analysis: Analysis): Map<string, Term> {
  const terms = new Map<string, Term>();
  const add = (word: string, pos: LexiconPos) => {
    const key = `${pos}|${word}`;
    const term = terms.get(key);
    if (term === undefined) terms.set(key, { word, pos, count: 1 });
    else term.count++;
  };
  for (const sentence of analysis.sentences) {
    let previous: Token | undefined;
    sentence.tokens.forEach((token, index) => {
      const pos = lexiconPos(token, index);
      if (pos === undefined || !isContentToken(token) || isIdiom(sentence.tokens, index)) {
        previous = undefined;
        return;
      }
      add(lexiconForm(token, pos), pos);
      if (previous !== undefined && pos === 'n') add(`${lemmaOf(previous)} ${lexiconForm(token, pos)}`, 'n');
      previous = token;
    });
  }
  return terms;
}

/** Evidence per category: each word's WordNet topic weights, a repeated word counting logarithmically more. */
export function wordnetScores(analysis: Analysis): Map<ConversationCategory, number> {
  const scores = new Map<ConversationCategory, number>();
  for (const term of termsOf(analysis).values()) {
    const repetition = 1 + Math.log(term.count);
    for (const { category, weight } of topicWeights(term.word, term.pos)) {
      scores.set(category, (scores.get(category) ?? 0) + weight * POS_FACTOR[term.pos] * repetition);
    }
  }
  return scores;
}

/** Both lexicons' evidence: WordNet's breadth and the hand lexicon's everyday words. */
function combined(
  wordnet: ReadonlyMap<ConversationCategory, number>,
  hand: ReadonlyMap<ConversationCategory, number>,
): Map<ConversationCategory, number> {
  const scores = new Map(wordnet);
  for (const [category, score] of hand) scores.set(category, (scores.get(category) ?? 0) + HAND_FACTOR * score);
  return scores;
}

/**
 * Where a conversation happens (at work, with family, with friends, the wearer's own errands) is
 * what a life log files it under; a subject talked about there (a bug, a trip, a child's school)
 * wins only when it clearly dominates, with at least twice the setting's evidence.
 */
const SETTINGS: ReadonlySet<ConversationCategory> = new Set(['work', 'personal', 'family', 'social']);
const SETTING_SHARE = 0.5;

export interface Classification {
  /** the category the conversation is filed under */
  category: ConversationCategory;
  /** the category with the most topic evidence, the setting aside: what the talk was about */
  subject: ConversationCategory;
}

/** The hand rule: the setting when one is clear, else the subject unless a setting's evidence keeps up. */
function ruleOf(
  ranked: ReadonlyArray<[ConversationCategory, number]>,
  setting: ConversationCategory | undefined,
): Classification {
  const [top] = ranked;
  if (top === undefined || top[1] <= MIN_EVIDENCE) return { category: setting ?? 'other', subject: 'other' };
  if (setting !== undefined) return { category: setting, subject: top[0] };
  if (SETTINGS.has(top[0])) return { category: top[0], subject: top[0] };
  // Kin mentioned make the family a subject; only kin taking part (above) make it the setting.
  const lead = ranked.find(
    ([category, score]) => SETTINGS.has(category) && category !== 'family' && score >= SETTING_SHARE * top[1],
  );
  return { category: lead?.[0] ?? top[0], subject: top[0] };
}

/** Everything the category model weighs, the hand rule's decision among it. */
export function categoryEvidence(analysis: Analysis): CategoryEvidence {
  const wordnet = wordnetScores(analysis);
  const hand = handLexiconScores(analysis);
  const topic = combined(wordnet, hand);
  const ranked = [...topic].sort((a, b) => b[1] - a[1]);
  const kin = kinPresent(analysis);
  const settingChoice = settingOf(analysis);
  // With a relative taking part, the family is the setting wherever the talk takes place.
  const rule = ruleOf(ranked, kin ? 'family' : settingChoice);
  return {
    topic,
    wordnet,
    hand,
    setting: settingScores(analysis),
    settingChoice,
    kinPresent: kin,
    rule: rule.category,
    subject: rule.subject,
  };
}

/**
 * The category (decided by the category model over the engine's evidence), and the subject it may
 * differ from: the category with the most topic evidence, 'other' when nothing names a topic.
 */
export function classify(analysis: Analysis): Classification {
  const evidence = categoryEvidence(analysis);
  return { category: modelCategory(analysis, evidence), subject: evidence.subject };
}

/** The category a conversation is filed under. */
export function categorize(analysis: Analysis): ConversationCategory {
  return classify(analysis).category;
}
