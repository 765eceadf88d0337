import type { TranscriptInput } from '../engine.js';
import { parseTurns, type Token } from './nlp.js';
import { type Attribution, wearerAmong, wearerLabels } from './speakers.js';
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
  /** how the wearer's turns were recognised; `absent` when the wearer does not speak at all */
  attribution: Attribution;
}

interface Attributed {
  turns: Turn[];
  attribution: Attribution;
}

// Bounds the work on pathological inputs; 200k characters is ~35k words, far above a day's conversation.
const MAX_ANALYSED_CHARS = 200_000;

/** Segments marked `is_user` are the wearer's; without any mark, the labels decide (speakers.ts). */
function turnsFromSegments(input: TranscriptInput): Attributed {
  const ordered = [...input.segments].sort((a, b) => a.start - b.start);
  const marked = ordered.some((segment) => segment.isUser);
  const rule = marked
    ? { isWearer: () => false, attribution: 'marked' as const }
    : wearerAmong(
        ordered
          .filter((segment) => segment.text.trim() !== '')
          .map((segment) => ({ label: segment.speaker, text: segment.text })),
        input.userName,
      );
  const turns: Turn[] = [];
  for (const segment of ordered) {
    const text = normalizeText(segment.text).trim();
    if (text === '') continue;
    const isUser = marked ? segment.isUser : rule.isWearer(segment.speaker);
    const last = turns.at(-1);
    if (last !== undefined && last.speaker === segment.speaker && last.isUser === isUser) {
      last.text = `${last.text} ${text}`;
    } else {
      turns.push({ speaker: segment.speaker, isUser, text });
    }
  }
  return { turns, attribution: rule.attribution };
}

/** Labelled lines are attributed by their labels; unlabelled text (a memo) is all the wearer's. */
function turnsFromText(input: TranscriptInput): Attributed {
  const owner = input.userName.trim() === '' ? 'User' : input.userName.trim();
  const lines = splitLabelledLines(normalizeText(input.text), wearerLabels(input.userName));
  const labels = lines.flatMap((line) => (line.speaker === null ? [] : [{ label: line.speaker, text: line.text }]));
  if (labels.length === 0) {
    const turns = unwrapped(lines.map((line) => line.text.trim())).map((text) => ({
      speaker: owner,
      isUser: true,
      text,
    }));
    return { turns, attribution: 'unlabelled' };
  }
  const rule = wearerAmong(labels, input.userName);
  const turns = lines.map((line) => ({
    speaker: line.speaker ?? owner,
    // An unlabelled line before or between labelled turns is a note the wearer made.
    isUser: line.speaker === null || rule.isWearer(line.speaker),
    text: line.text.trim(),
  }));
  return { turns, attribution: rule.attribution };
}

// A line this long that stops without a full stop, before a line that goes on in lower case, was wrapped.
const WRAPPED_LINE = 60;

/** A memo pasted with hard line breaks: "So I need to order the cake / from Bimpe's bakery by Friday". */
function unwrapped(lines: string[]): string[] {
  const joined: string[] = [];
  for (const line of lines) {
    const last = joined.at(-1);
    if (last !== undefined && last.length >= WRAPPED_LINE && !/[.!?:;]["')\]]?$/.test(last) && /^\p{Ll}/u.test(line))
      joined[joined.length - 1] = `${last} ${line}`;
    else joined.push(line);
  }
  return joined;
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
  const attributed = fromSegments ? turnsFromSegments(input) : turnsFromText(input);
  const turns = withoutPlaceholders(boundTurns(attributed.turns.filter((turn) => turn.text !== '')));
  const sentences: Sentence[] = [];
  parseTurns(turns.map((turn) => turn.text)).forEach((parsed, index) => {
    const turn = turns[index];
    for (const sentence of parsed)
      sentences.push({ ...sentence, speaker: turn.speaker, isUser: turn.isUser, turn: index });
  });
  const dialogue = turns.some((turn) => !turn.isUser);
  return { turns, sentences, dialogue, attribution: attributed.attribution };
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
