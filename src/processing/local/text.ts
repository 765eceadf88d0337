/** Unicode and punctuation normalisation shared by every step. */

const APOSTROPHES = /[\u2018\u2019\u201B\u2032\u00B4`]/g;
const QUOTES = /[\u201C\u201D\u201E\u2033]/g;
const INVISIBLES = /[\u200B-\u200D\u2060\uFEFF]/g;

/** NFKC plus apostrophe and quote folding, so "I’ll", "I'll" and an unpunctuated "Ill" read the same. */
export function normalizeText(text: string): string {
  const folded = text.normalize('NFKC').replace(APOSTROPHES, "'").replace(QUOTES, '"').replace(INVISIBLES, '');
  return folded.includes("'") ? folded : withApostrophes(folded);
}

// Contractions typed or transcribed without their apostrophe; none of these spellings is a word of its own.
const BARE_CONTRACTIONS: ReadonlyArray<[RegExp, string]> = [
  [/\b(I|i)m\b/g, "$1'm"],
  [/\b(I|i)ve\b/g, "$1've"],
  [/\bId\b(?= \p{Ll})/gu, "I'd"],
  [/\b(do|does|did|is|are|was|were|has|have|had|should|could|would|must|need)nt\b/gi, "$1n't"],
  [/\b(ca)nt\b/gi, "$1n't"],
  [/\b(wo)nt\b/gi, "$1n't"],
  [/\b(you|they)re\b/gi, "$1're"],
  [
    /\b(that|what|where|there|here|who|it)s\b(?= (?:a|an|the|not|just|so|going|been|my|your|our|all|what|how|why|fine|good|great|okay|ok|it)\b)/gi,
    "$1's",
  ],
  // "Ill get the numbers": "I'll" before a verb at the start of a clause; "I feel ill" stays.
  [
    /(^|[.!?,;]\s+|\b(?:and|so|then|but|ok|okay|yeah|yes|sure|fine)\s+)(I|i)ll\b(?= (?:be|do|get|send|call|go|take|check|email|text|ask|bring|make|have|see|try|pay|book|write|look|pick|drop|let|put|sort|finish|start|come|give|tell|need|pop|grab|ring|buy|fix|set|meet|talk|keep|just|probably|definitely|also|never|always|still|only|really)\b)/gm,
    "$1$2'll",
  ],
];

function withApostrophes(text: string): string {
  let result = text;
  for (const [pattern, replacement] of BARE_CONTRACTIONS) result = result.replace(pattern, replacement);
  return result;
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

// Words that name someone by their role rather than their name: a speaker labelled "Agent:", the
// "physio" a setting names.
const ROLE_WORD =
  /^(?:agent|advisor|adviser|assistant|attendant|banker|broker|caller|cashier|clerk|coach|counsellor|counselor|customer(?: service)?|client|dentist|doctor|driver|electrician|engineer|gp|guest|host|hygienist|imam|instructor|interviewer|landlady|landlord|lawyer|lecturer|mechanic|midwife|nurse|officer|operator|optician|pastor|patient|pharmacist|physio|plumber|presenter|priest|professor|rabbi|receptionist|recruiter|rep|representative|seller|server|solicitor|staff|student|support|teacher|technician|teller|therapist|trainer|tutor|vet|vicar|waiter|waitress)$/i;

export function isRoleWord(word: string): boolean {
  return ROLE_WORD.test(word.trim());
}

/** How a speaker label reads in a sentence: a person by name, a role with its article ("the agent"). */
export function speakerAsPerson(label: string): string {
  const trimmed = label.trim();
  return isRoleWord(trimmed) ? `the ${trimmed.toLowerCase()}` : trimmed;
}

// "his knee", "Mum's hip", "my son's football", "her usual metformin": someone else's, right before a thing;
// "it's", "how's the" and the like are a verb, not an owner.
const OTHERS_BEFORE =
  /\b(?:his|her|their|its|(?!(?:it|that|this|there|here|what|how|when|why|he|she|who|where|let|one)['’]s)\p{L}+['’]s)\s+(?:(?!(?:the|a|an|my|your|our)\s)[\p{L}-]+\s+)?$/iu;

/** Whether the text ends with someone else's possessive, and at most one word after it. */
export function endsWithOthersPossessive(before: string): boolean {
  return OTHERS_BEFORE.test(before);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// "[0:00:00 - 0:00:06] " or "[00:12] " or "(1:02:03) " before a label, as transcripts are rendered with times.
const TIMESTAMP =
  /^\s*[[(]\s*\d{1,2}(?::\d{2}){1,2}(?:[.,]\d+)?(?:\s*[-–]\s*\d{1,2}(?::\d{2}){1,2}(?:[.,]\d+)?)?\s*[\])]\s*/;
const LABELLED_LINE = /^\s*([\p{L}][\p{L}\p{N} ._'()-]{0,39}?)\s*:\s+(.*)$/u;
const PLACEHOLDER_LABEL = /^\s*speaker[\s_-]*\d+\s*$/i;

export interface LabelledLine {
  speaker: string | null;
  text: string;
}

interface RawLine {
  label: string | null;
  text: string;
  timed: boolean;
  /** first line after a blank line (or of the text) */
  opensBlock: boolean;
}

function readLines(text: string): RawLine[] {
  const lines: RawLine[] = [];
  let afterBlank = true;
  for (const line of text.split(/\r?\n/).flatMap((raw) => unfoldInlineTurns(raw).split('\n'))) {
    if (line.trim() === '') {
      afterBlank = true;
      continue;
    }
    const time = TIMESTAMP.exec(line);
    const rest = time === null ? line : line.slice(time[0].length);
    const match = LABELLED_LINE.exec(rest);
    lines.push({
      label: match === null ? null : match[1].trim(),
      text: match === null ? rest : match[2],
      timed: time !== null,
      opensBlock: afterBlank,
    });
    afterBlank = false;
  }
  return lines;
}

// "Manager: Can you…? Me: Sure. Manager: Great.": a turn label after a sentence's end, inside a line.
const INLINE_LABEL =
  /(?<=(?<!\b(?:Dr|Mr|Mrs|Ms|Mx|Prof|St|Sr|Jr))[.?!…]["')\]]?)\s+((?:\p{Lu}[\p{L}'.-]*(?: \p{Lu}[\p{L}'.-]*){0,2}|Speaker \d+|SPEAKER_\d+)):\s+/gu;

/**
 * A conversation pasted on one line ("Manager: … Me: … Manager: …") is unfolded into one line a turn
 * when the line opens with a label and at least three labelled turns of two or more speakers follow
 * one another, one of them speaking twice; "Note to self: … Reminder: …" stays a memo.
 */
function unfoldInlineTurns(line: string): string {
  const first = LABELLED_LINE.exec(line);
  if (first === null || !line.includes(':', first[1].length + 1)) return line;
  const labels = [first[1].trim(), ...[...first[2].matchAll(INLINE_LABEL)].map((match) => match[1])];
  const distinct = new Set(labels.map((label) => label.toLowerCase()));
  if (labels.length < 3 || distinct.size < 2 || distinct.size === labels.length) return line;
  const opening = line.length - first[2].length;
  return line.slice(0, opening) + first[2].replace(INLINE_LABEL, (_whole, label: string) => `\n${label}: `);
}

/** Labels are speakers when the whole text is laid out as a transcript: every line, or every block, labelled. */
function laidOutAsTranscript(lines: RawLine[]): boolean {
  if (lines.length > 1 && lines.every((line) => line.label !== null)) return true;
  const blocks = lines.filter((line) => line.opensBlock);
  return blocks.length > 1 && blocks.every((line) => line.label !== null);
}

/**
 * Splits "Speaker: text" transcripts into lines, also in the rendering with times
 * ("[0:00:00 - 0:00:06] Sam: …", turns separated by blank lines). A line keeps its label when the
 * text is laid out as a transcript, the line carries a time, or the label is a diarization placeholder
 * or one of `speakerNames` (the wearer's labels), so that a memo such as "Reminder: call mom" is left
 * intact. An unlabelled line continues the labelled turn above it within its block.
 */
export function splitLabelledLines(text: string, speakerNames: ReadonlySet<string> = new Set()): LabelledLine[] {
  const lines = readLines(text);
  const transcript = laidOutAsTranscript(lines);
  const result: LabelledLine[] = [];
  for (const line of lines) {
    const label = line.label;
    const accepted =
      label !== null &&
      (transcript || line.timed || PLACEHOLDER_LABEL.test(label) || speakerNames.has(label.toLowerCase()));
    const previous = result.at(-1);
    if (accepted) result.push({ speaker: label, text: line.text });
    else if (!line.opensBlock && previous !== undefined && previous.speaker !== null) {
      previous.text = `${previous.text} ${line.text.trim()}`;
    } else result.push({ speaker: null, text: line.timed || label === null ? line.text : `${label}: ${line.text}` });
  }
  return result;
}

/** The transcript text without speaker labels. */
export function stripSpeakerLabels(text: string): string {
  return splitLabelledLines(text)
    .map((line) => line.text)
    .join('\n');
}
