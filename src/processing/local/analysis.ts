import type { TranscriptInput } from '../engine.js';
import { parseTurns, type Token } from './nlp.js';
import { normalizeText, SPEAKER_PLACEHOLDER, splitLabelledLines } from './text.js';

/** A speaker turn: consecutive segments of one speaker merged. */
export interface Turn {
  speaker: string;
  isUser: boolean;
  text: string;
}

export interface Sentence {
  text: string;
  tokens: Token[];
  speaker: string;
  isUser: boolean;
  /** index of the turn the sentence belongs to */
  turn: number;
}

export interface Analysis {
  turns: Turn[];
  sentences: Sentence[];
  /** true when someone other than the user speaks; false for memos and monologues */
  dialogue: boolean;
}

// Bounds the work on pathological inputs; 200k characters is ~35k words, far above a day's conversation.
const MAX_ANALYSED_CHARS = 200_000;

function turnsFromSegments(input: TranscriptInput): Turn[] {
  const ordered = [...input.segments].sort((a, b) => a.start - b.start);
  const turns: Turn[] = [];
  for (const segment of ordered) {
    const text = normalizeText(segment.text).trim();
    if (text === '') continue;
    const last = turns.at(-1);
    if (last !== undefined && last.speaker === segment.speaker && last.isUser === segment.isUser) {
      last.text = `${last.text} ${text}`;
    } else {
      turns.push({ speaker: segment.speaker, isUser: segment.isUser, text });
    }
  }
  return turns;
}

function turnsFromText(input: TranscriptInput): Turn[] {
  const owner = input.userName.trim() === '' ? 'User' : input.userName.trim();
  return splitLabelledLines(normalizeText(input.text)).map((line) => ({
    speaker: line.speaker ?? owner,
    isUser: line.speaker === null || line.speaker === owner,
    text: line.text.trim(),
  }));
}

function boundTurns(turns: Turn[]): Turn[] {
  let budget = MAX_ANALYSED_CHARS;
  const bounded: Turn[] = [];
  for (const turn of turns) {
    if (budget <= 0) break;
    bounded.push({ ...turn, text: turn.text.slice(0, budget) });
    budget -= turn.text.length;
  }
  return bounded;
}

/** Diarization labels spoken into the text ("Speaker 1 said…") are not content; they read as "someone". */
function withoutPlaceholders(turns: Turn[]): Turn[] {
  return turns.map((turn) => ({ ...turn, text: turn.text.replace(SPEAKER_PLACEHOLDER, 'someone') }));
}

function analyse(input: TranscriptInput): Analysis {
  const fromSegments = input.segments.some((segment) => segment.text.trim() !== '');
  const all = fromSegments ? turnsFromSegments(input) : turnsFromText(input);
  const turns = withoutPlaceholders(boundTurns(all.filter((turn) => turn.text !== '')));
  const sentences: Sentence[] = [];
  parseTurns(turns.map((turn) => turn.text)).forEach((parsed, index) => {
    const turn = turns[index];
    for (const sentence of parsed)
      sentences.push({ ...sentence, speaker: turn.speaker, isUser: turn.isUser, turn: index });
  });
  return { turns, sentences, dialogue: turns.some((turn) => !turn.isUser) };
}

const cache = new WeakMap<TranscriptInput, { text: string; segmentCount: number; analysis: Analysis }>();

/** The parse of an input, shared by the four steps when the pipeline passes the same object. */
export function analysisOf(input: TranscriptInput): Analysis {
  const cached = cache.get(input);
  if (cached !== undefined && cached.text === input.text && cached.segmentCount === input.segments.length) {
    return cached.analysis;
  }
  const analysis = analyse(input);
  cache.set(input, { text: input.text, segmentCount: input.segments.length, analysis });
  return analysis;
}

/** The full text as the engine reads it, without speaker labels. */
export function plainText(analysis: Analysis): string {
  return analysis.turns.map((turn) => turn.text).join('\n');
}
