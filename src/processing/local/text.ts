/** Unicode and punctuation normalisation shared by every step. */

const APOSTROPHES = /[\u2018\u2019\u201B\u2032\u00B4`]/g;
const QUOTES = /[\u201C\u201D\u201E\u2033]/g;
const INVISIBLES = /[\u200B-\u200D\u2060\uFEFF]/g;

/** NFKC plus apostrophe and quote folding, so "I’ll" and "I'll" read the same. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').replace(APOSTROPHES, "'").replace(QUOTES, '"').replace(INVISIBLES, '');
}

/** Collapses whitespace and trims. */
export function squeezeSpaces(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts text to at most maxChars, at a word boundary, with an ellipsis when something was cut. */
export function truncateChars(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars - 1);
  const lastSpace = cut.lastIndexOf(' ');
  const base = lastSpace > maxChars * 0.6 ? cut.slice(0, lastSpace) : cut;
  return `${base.replace(/[\s,;:.-]+$/u, '')}…`;
}

/** Keeps at most maxWords words. */
export function truncateWords(text: string, maxWords: number): string {
  const words = text.split(/\s+/).filter((word) => word !== '');
  return words.slice(0, maxWords).join(' ');
}

const SMALL_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'but', 'of', 'to', 'in', 'on', 'at', 'for', 'with', 'by']);

/** Headline Case: every word capitalised except short connectives that are not first. */
export function headlineCase(text: string): string {
  return text
    .split(' ')
    .filter((word) => word !== '')
    .map((word, index) => {
      const lower = word.toLowerCase();
      if (index > 0 && SMALL_WORDS.has(lower)) return lower;
      if (/^[A-Z0-9]{2,}$/.test(word)) return word;
      return word.charAt(0).toUpperCase() + word.slice(1);
    })
    .join(' ');
}

/** Upper-cases the first letter only. */
export function capitalizeFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Diarization placeholders such as "Speaker 0" or "SPEAKER_01", which must never reach a title. */
export const SPEAKER_PLACEHOLDER = /\bspeaker[\s_-]*\d+\b/gi;

export function isPlaceholderSpeaker(name: string): boolean {
  return /^\s*(?:speaker[\s_-]*\d+|unknown|user|me)?\s*$/i.test(name);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const LABELLED_LINE = /^\s*([\p{L}][\p{L}\p{N} ._'-]{0,39}):\s+(.*)$/u;
const PLACEHOLDER_LABEL = /^\s*speaker[\s_-]*\d+\s*:\s*/i;

export interface LabelledLine {
  speaker: string | null;
  text: string;
}

/**
 * Splits "Speaker: text" transcripts into lines. A line keeps its label only when every non-empty
 * line is labelled (a real transcript) or the label is a diarization placeholder, so that a memo
 * such as "Reminder: call mom" is left intact.
 */
export function splitLabelledLines(text: string): LabelledLine[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const allLabelled = lines.length > 1 && lines.every((line) => LABELLED_LINE.test(line));
  return lines.map((line) => {
    const match = LABELLED_LINE.exec(line);
    if (match !== null && (allLabelled || PLACEHOLDER_LABEL.test(line))) {
      return { speaker: match[1].trim(), text: match[2] };
    }
    return { speaker: null, text: line };
  });
}

/** The transcript text without speaker labels. */
export function stripSpeakerLabels(text: string): string {
  return splitLabelledLines(text)
    .map((line) => line.text)
    .join('\n');
}
