import type { DateMention } from './dates.js';
import { capitalizeFirst, squeezeSpaces, truncateWords } from './text.js';

/** Who the pronouns of a clause point at, for rewriting it as the user's own to-do. */
export interface Perspective {
  /** 'request': spoken to the user by someone else; 'self': spoken by the user */
  voice: 'request' | 'self';
  /** the other party's name, or "them" when diarization gave only a placeholder */
  otherParty: string;
  /** plain memos keep their "you" (it is usually generic) */
  dialogue: boolean;
}

const PREPOSITIONS_BEFORE_TIME =
  /(?:\b(?:by|on|at|before|until|till|for|this|next|due|no later than|first thing|in the|around|starting|from)\s+)+$/i;
const TIME_WORDS =
  /\b(?:(?:at|around|over|after|before) (?:lunch(?:time)?|noon|midday|dinner|breakfast)|(?:in the|this) (?:morning|afternoon|evening)|(?:the minute|the moment|as soon as) (?:they|it|he|she|we|i) \w+|asap|as soon as possible|right away|immediately|urgently|first thing|later today|later|soon|today|tonight|tomorrow(?: morning| afternoon| evening| night)?|this (?:week|weekend|month|morning|afternoon|evening)|next (?:week|month)|every (?:day|evening|morning|night)(?: this week)?|end of (?:the )?(?:day|week|month))\b(?!['’]s\b)/gi;
const TRAILING_JUNK =
  /(?:[\s,]+(?:and|or|but|to|for|with|by|on|at|then|too|as well|please|okay|ok|though|so|anyway|properly|either))+[\s,.!?]*$/i;
// "…and all that by Friday, for sure": a hedge or an "and so on" at the end adds nothing.
const TRAILING_HEDGE =
  /(?:,?\s+(?:for sure|and all that|and everything|and stuff|or something|or whatever|no problem|no worries|don'?t worry|promise|i promise|lol|lmao|haha+|xx+|no,? wait|wait|actually|sorry|i mean))+[\s,.!?]*$/i;
// "Book the blood test at reception and come back on the 8th": coming back, once its day is out, is no task.
const TRAILING_RETURN = /\s+and (?:then )?(?:come|go|get|head|pop|swing) (?:back|home|over|round|by)$/i;
const VERB_ONLY_WORDS = 15;

function removeDateSpans(clause: string, clauseStart: number, mentions: DateMention[]): string {
  let text = clause;
  const inside = mentions
    .filter((mention) => mention.index >= clauseStart && mention.index < clauseStart + clause.length)
    .sort((a, b) => b.index - a.index);
  for (const mention of inside) {
    const start = mention.index - clauseStart;
    const end = Math.min(mention.end - clauseStart, text.length);
    // "this month's fee", "Friday's meeting": the time names a thing and stays in its words.
    if (/^['’]s\b/.test(text.slice(end))) continue;
    // "in this arvo", "in a week": an "in" that opens the time; "let the technician in on Friday" keeps its own.
    const opensTime = /^(?:this|next|the|a|an|\d|two|three|four|five|six)\b/i.test(text.slice(start, end));
    let before = text.slice(0, start);
    if (opensTime) before = before.replace(/\bin\s+$/i, '');
    before = before.replace(PREPOSITIONS_BEFORE_TIME, '');
    text = `${before} ${text.slice(end)}`;
  }
  return text.replace(TIME_WORDS, ' ');
}

// "you" as a subject ("the salsa you made") becomes "I"; otherwise it is an object ("send you") and becomes "me".
const YOU_AS_SUBJECT =
  /^(?:['’](?:d|ll|ve)\b|\s+(?:made|said|have|had|need|want|did|do|are|were|can|could|will|would|mentioned|promised|know|like|liked|told|wrote|took|got|bought|buy|pay|paid|spend|spent|receive|owe|order|sent|use|used|borrowed|feel|felt|notice|noticed|see|saw|get|go|wake|eat|ate|find|think|hear|leave|arrive|come|start|finish|reach|should|must|might)\b)/i;

function rewriteRequest(text: string, otherParty: string): string {
  const possessive = otherParty === 'them' ? 'their' : `${otherParty}'s`;
  // "how you'd investigate" → "how I'd investigate"; "you're" is "I'm".
  const subject = text.replace(/\byou['’]re\b/gi, "I'm");
  return subject.replace(/\b(me|my|mine|myself|you|your|yours|yourself)\b/gi, (word, _group, offset: number) => {
    switch (word.toLowerCase()) {
      case 'me':
        return otherParty;
      case 'my':
        return possessive;
      case 'mine':
        return otherParty === 'them' ? 'theirs' : possessive;
      case 'myself':
        return otherParty === 'them' ? 'themselves' : otherParty;
      case 'you':
        return YOU_AS_SUBJECT.test(subject.slice(offset + word.length)) ? 'I' : 'me';
      case 'your':
        return 'my';
      case 'yours':
        return 'mine';
      default:
        return 'myself';
    }
  });
}

function rewriteSelf(text: string, otherParty: string): string {
  const possessive = otherParty === 'them' ? 'their' : `${otherParty}'s`;
  // "send you guys the link", "tell you all": a group addressed is "them", whatever the one who answered.
  const group = text.replace(/\byou (?:guys|all|lot|two|both|folks)\b|\by'all\b/gi, 'them');
  return group.replace(/\b(you|your|yours)\b/gi, (word) => {
    const lower = word.toLowerCase();
    if (lower === 'you') return otherParty;
    return lower === 'your' ? possessive : otherParty === 'them' ? 'theirs' : possessive;
  });
}

// "the, uh, the spare key" → "the spare key": hesitations and the word repeated after them.
const HESITATION = /,?\s*\b(?:uh|um|er|erm|uhm)\b,?/gi;
const HESITATION_WORD = /\b(?:uh|um|er|erm|uhm)\b/i;
const REPEATED_WORD = /\b(\w+)(?:,?\s+\1\b)+/gi;
const DASHED_REPEAT = /\b(\w+)\s*[—–]\s*\1\b/gi;

function tidy(text: string): string {
  // The word repeated around a hesitation ("the, uh, the") is looked for only where there is one.
  const fluent = HESITATION_WORD.test(text) ? text.replace(HESITATION, ' ').replace(REPEATED_WORD, '$1') : text;
  // "bring the — the cream": a word said again after a dash is one word.
  // "Take azithromycin instead, one a day": what it replaces was said before; the task stands without it.
  // So does "yet" from a question ("did you find a place yet?").
  const repaired = fluent.replace(DASHED_REPEAT, '$1').replace(/\s+(?:instead|yet)\b(?=\s*(?:[,.;?]|$))/i, '');
  let result = squeezeSpaces(repaired.replace(/\s+([,.!?;:])/g, '$1'));
  result = result.replace(/^[\s,;:-]+/, '');
  for (let pass = 0; pass < 3; pass++)
    result = result.replace(TRAILING_JUNK, '').replace(TRAILING_HEDGE, '').replace(TRAILING_RETURN, '');
  return result.replace(/[\s,;:.!?—–-]+$/, '');
}

/** A to-do line from a clause: time phrases out, pronouns turned to the user's view, ≤ 15 words. */
export function describeClause(
  clause: string,
  clauseStart: number,
  mentions: DateMention[],
  perspective: Perspective,
): string {
  let text = removeDateSpans(clause, clauseStart, mentions);
  if (perspective.dialogue) {
    text =
      perspective.voice === 'request'
        ? rewriteRequest(text, perspective.otherParty)
        : rewriteSelf(text, perspective.otherParty);
  }
  const shortened = tidy(truncateWords(tidy(text), VERB_ONLY_WORDS));
  return capitalizeFirst(shortened);
}

const PRONOUNS = new Set(['it', 'them', 'him', 'her', 'that', 'this', 'those', 'these', 'one', 'everything', 'so']);
const PARTICLES = new Set(['up', 'out', 'off', 'back', 'down', 'in', 'over', 'done', 'over']);

/** "Phone off", "Sit down": a verb with only particles after it acts on nothing and follows up nothing. */
export function particlesOnly(description: string): boolean {
  const words = description.toLowerCase().split(/\s+/).slice(1);
  return words.length > 0 && words.every((word) => PARTICLES.has(word));
}

/** "Review it", "Do that", "Get him": the object only points back at something said before. */
export function isPronounOnly(description: string): boolean {
  const words = description.toLowerCase().split(/\s+/).slice(1);
  const meaningful = words.filter((word) => !PARTICLES.has(word));
  return meaningful.length === 0 || meaningful.every((word) => PRONOUNS.has(word));
}
