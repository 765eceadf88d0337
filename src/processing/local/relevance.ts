import type { RelevanceVerdict } from '../engine.js';
import { normalizeText, stripSpeakerLabels } from './text.js';
import {
  CJK_ACKNOWLEDGEMENTS,
  COUNTING_WORDS,
  FILLERS,
  FUNCTION_WORDS,
  MIC_CHECK_VOCABULARY,
  MIC_WORDS,
  NAME_HOMOGRAPHS,
} from './vocabulary.js';

/** The deterministic tiers of research/omi-listen.md §3.2 (rule set version 1). */
export const RULES_VERSION = 1;

export interface RuleDecision {
  verdict: RelevanceVerdict;
  reason: string;
}

interface RuleTokens {
  /** Latin-script words and numbers, lowercased */
  latin: string[];
  /** Latin words as written, to spot capitalised names */
  latinRaw: string[];
  /** words of other alphabetic scripts (Cyrillic, Greek, Arabic, …), lowercased */
  other: string[];
  /** runs of Han, Kana and Hangul characters */
  cjk: string[];
}

const TOKEN_PATTERN =
  /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)|([\p{Script=Latin}\p{Nd}]+(?:'[\p{Script=Latin}]+)*)|([\p{L}\p{M}]+)/gu;

function tokenizeForRules(text: string): RuleTokens {
  const tokens: RuleTokens = { latin: [], latinRaw: [], other: [], cjk: [] };
  for (const match of normalizeText(text).matchAll(TOKEN_PATTERN)) {
    if (match[1] !== undefined) tokens.cjk.push(match[1]);
    else if (match[2] !== undefined) {
      tokens.latin.push(match[2].toLowerCase());
      tokens.latinRaw.push(match[2]);
    } else if (match[3] !== undefined) tokens.other.push(match[3].toLowerCase());
  }
  return tokens;
}

const ELONGATED = /(.)\1\1/u;
const COLLAPSED_FILLERS = new Set([...FILLERS].map(collapseRepeats));
const LAUGHTER = /^a?(?:h[aeio])+h?$|^(?:lol)+$|^(?:ha)+$/;

function collapseRepeats(word: string): string {
  return word.replace(/(.)\1+/gu, '$1');
}

function computeIsFiller(word: string): boolean {
  if (FILLERS.has(word)) return true;
  const collapsed = collapseRepeats(word);
  if (LAUGHTER.test(collapsed)) return true;
  return ELONGATED.test(word) && COLLAPSED_FILLERS.has(collapsed);
}

// Every token of every transcript is checked; the same few thousand words come back again and again.
const fillerMemo = new Map<string, boolean>();
const MAX_MEMO = 50_000;

/** A filler or backchannel, including elongated forms such as "hmmmm", "yeahhh" and laughter. */
export function isFiller(word: string): boolean {
  let known = fillerMemo.get(word);
  if (known === undefined) {
    known = computeIsFiller(word);
    if (fillerMemo.size >= MAX_MEMO) fillerMemo.clear();
    fillerMemo.set(word, known);
  }
  return known;
}

function isFunctionOrFiller(word: string): boolean {
  return isFiller(word) || FUNCTION_WORDS.has(word) || FUNCTION_WORDS.has(word.replace(/'.*$/, ''));
}

const EXPLICIT_REMINDER =
  /\b(?:remind me|don'?t (?:let me )?forget|do not forget|remember to|note to self|(?:make|take) a note|set (?:a |an |the |my )?(?:reminder|alarm|timer)|add\b.{0,60}\bto (?:my|the) (?:\w+ )?(?:list|calendar|to-?do|todo|agenda))\b/i;

function wordEquivalents(tokens: RuleTokens): number {
  const cjkChars = tokens.cjk.reduce((sum, run) => sum + [...run].length, 0);
  return tokens.latin.length + tokens.other.length + cjkChars / 1.5;
}

function hasNonLatinContent(tokens: RuleTokens): boolean {
  return (
    tokens.cjk.some((run) => !CJK_ACKNOWLEDGEMENTS.has(run)) || tokens.other.some((word) => !isFunctionOrFiller(word))
  );
}

function isMicCheck(tokens: RuleTokens): boolean {
  const words = tokens.latin;
  if (words.length === 0 || words.length > 20 || tokens.other.length + tokens.cjk.length > 0) return false;
  if (!words.every((word) => MIC_CHECK_VOCABULARY.has(word) || isFiller(word))) return false;
  const micWords = words.filter((word) => MIC_WORDS.has(word)).length;
  const counts = words.some((word) => COUNTING_WORDS.has(word));
  const hearMe = /\bhear me\b|\bthis thing on\b/.test(words.join(' '));
  return micWords > 0 && (counts || hearMe || micWords > 1);
}

/** Capitalised words inside a sentence, or name/month homographs, suggest a real reference. */
function mentionsName(text: string, tokens: RuleTokens): boolean {
  if (tokens.latin.some((word) => NAME_HOMOGRAPHS.has(word))) return true;
  return normalizeText(text)
    .split(/(?<=[.!?…])\s+|\n+/)
    .some((sentence) => {
      const words = sentence.match(/[\p{Script=Latin}']+/gu) ?? [];
      return words.slice(1).some((word) => /^\p{Lu}\p{Ll}/u.test(word) && !/^I(?:'|$)/.test(word));
    });
}

/** The rule tiers in order; 'undecided' leaves the decision to the model tier. */
export function decideByRules(transcript: string): RuleDecision {
  const text = stripSpeakerLabels(normalizeText(transcript));
  const tokens = tokenizeForRules(text);
  const total = tokens.latin.length + tokens.other.length + tokens.cjk.length;
  if (total === 0) return { verdict: 'discard', reason: 'empty_transcript' };
  if (EXPLICIT_REMINDER.test(text)) return { verdict: 'keep', reason: 'explicit_reminder' };
  const onlyFillers =
    tokens.latin.every(isFiller) &&
    tokens.other.every(isFiller) &&
    tokens.cjk.every((run) => CJK_ACKNOWLEDGEMENTS.has(run));
  if (onlyFillers) return { verdict: 'discard', reason: 'filler_only' };
  if (wordEquivalents(tokens) > 100) return { verdict: 'keep', reason: 'substantial_length' };
  if (hasNonLatinContent(tokens)) return { verdict: 'undecided', reason: 'non_latin_content' };
  if (isMicCheck(tokens)) return { verdict: 'discard', reason: 'mic_check' };
  const protectedFromDiscard = tokens.latin.some((word) => /\d/.test(word)) || mentionsName(text, tokens);
  if (!protectedFromDiscard && total <= 25 && tokens.latin.every(isFunctionOrFiller)) {
    return { verdict: 'discard', reason: 'no_content_words' };
  }
  return { verdict: 'undecided', reason: 'ambiguous' };
}
