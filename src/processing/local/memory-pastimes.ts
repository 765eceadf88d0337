import type { Analysis, Sentence } from './analysis.js';
import { lexicon } from './memory-nouns.js';
import { endsWithOthersPossessive } from './text.js';

/**
 * A pastime the wearer keeps, said while planning around it: "Wednesday is five-a-side as usual",
 * "I'll be there till eight, so no choir that night", "Our book club did it in February", "I missed
 * taiko", "I've switched to climbing". The activity is named from WordNet's sports, diversions and
 * instruments (memory-nouns.ts), with the groups one belongs to that WordNet has no word for.
 */

export interface PastimeFact {
  content: string;
  sentence: Sentence;
  /** the pastime named: "choir", "five-a-side" */
  about: string;
}

const DAY_AHEAD =
  /\b(?:tomorrow|tonight|today|next|this (?:week|weekend|morning|afternoon|evening|saturday|sunday))\b/i;

// Pastimes WordNet has no entry for, or files elsewhere.
const EXTRA = new Set(['book club', 'five-a-side', 'salsa', 'band', 'drums', 'netball', 'pickleball', 'futsal']);
const GROUPS = new Set(['choir', 'book club', 'band', 'orchestra', 'chorus']);
const PLAYED = new Set(
  'football soccer cricket tennis padel badminton squash rugby basketball netball volleyball golf chess pickleball five-a-side hockey bridge poker futsal handball baseball softball'.split(
    ' ',
  ),
);
// "I play drums in a band", "I do pottery": the present simple of a pastime is a habit, unless a day
// ahead makes it a plan ("I play football tomorrow").
function presentSimple(x: string): RegExp {
  return new RegExp(`\\bI (?:play|do|practi[cs]e|coach|referee|sing in) (?:the |a |in a )?${x}\\b`, 'i');
}
// How a kept pastime shows itself: as usual, skipped or missed, "our", a regular day, taken up.
const KEPT = [
  (x: string) => new RegExp(`\\b${x}\\b[^.?!]{0,30}\\bas (?:usual|always|normal)\\b`, 'i'),
  // "so no choir that night", "I missed taiko" (a doctor's "No running." forbids; it keeps nothing).
  (x: string) =>
    new RegExp(
      `\\bno ${x} (?:that|this|tonight|today|on)\\b|\\bso no ${x}\\b|\\bI(?:'ll|'m| will| have to| had to| might)? (?:skip|skipping|skipped|miss|missed|missing) ${x}\\b`,
      'i',
    ),
  // "our choir", "my yoga class", and "I'll move my badminton", "I have my yoga on Thursday".
  (x: string) =>
    new RegExp(
      `\\bour ${x}\\b|\\bmy ${x} (?:class|classes|practice|lesson|lessons|group|club|team|session|night|friends)\\b|\\b(?:move|moved|moving|cancel|cancelled|have|got|after|before|skip|miss) my ${x}\\b(?!['’])`,
      'i',
    ),
  (x: string) =>
    new RegExp(
      `\\b${x},? (?:on|every) (?:mon|tues|wednes|thurs|fri|satur|sun)day(?:s| mornings| nights| evenings)\\b`,
      'i',
    ),
  (x: string) =>
    new RegExp(
      `\\bI(?:'ve| have)? (?:switched to|taken up|took up|started|got into|gotten into|joined(?: a| the)?) ${x}\\b`,
      'i',
    ),
  presentSimple,
  // "Yeah, still running. Three mornings a week.", "The pottery started as a hobby".
  (x: string) => new RegExp(`\\bstill ${x}\\b|\\b${x}\\b[^.?!]{0,40}\\bhobby\\b`, 'i'),
  // "I'm out on the golf course every Saturday": a pastime kept on a regular day.
  (x: string) => new RegExp(`\\b${x}\\b[^.?!]{0,30}\\bevery (?:\\w+day|weekend|week|morning|evening|night)\\b`, 'i'),
];

function pastimesNamed(sentence: Sentence): string[] {
  const text = sentence.text.toLowerCase();
  const known = lexicon();
  const found: string[] = [];
  for (const token of sentence.tokens) {
    const word = token.normal;
    const kind = known.get(word);
    if (kind === 'pastime' || kind === 'instrument' || EXTRA.has(word)) found.push(word);
  }
  // "book club", "five-a-side": names the tokenizer splits are looked for in the text.
  for (const phrase of EXTRA) if (new RegExp(`\\b${phrase}\\b`).test(text)) found.push(phrase);
  return [...new Set(found)];
}

function describe(pastime: string): string {
  if (GROUPS.has(pastime)) return `User is in a ${pastime}`;
  if (lexicon().get(pastime) === 'instrument' || pastime === 'drums') return `User plays the ${pastime}`;
  if (PLAYED.has(pastime)) return `User plays ${pastime} regularly`;
  // "User goes running regularly", "User goes climbing regularly".
  if (/ing$/.test(pastime) && !/ (?:making|building|writing)$/.test(pastime)) return `User goes ${pastime} regularly`;
  return `User does ${pastime} regularly`;
}

/** The pastimes the wearer is shown keeping, once each. */
export function pastimesKept(analysis: Analysis): PastimeFact[] {
  if (analysis.attribution === 'absent') return [];
  const found = new Map<string, PastimeFact>();
  for (const sentence of analysis.sentences) {
    if (!sentence.isUser) continue;
    for (const pastime of pastimesNamed(sentence)) {
      const x = pastime.replace(/[-]/g, '[- ]');
      const at = sentence.text.toLowerCase().indexOf(pastime);
      // Someone else's: "Emil has his handball tournament", "my son's football".
      if (found.has(pastime) || (at > 0 && endsWithOthersPossessive(sentence.text.slice(0, at)))) continue;
      const matched = KEPT.filter((pattern) => pattern(x).test(sentence.text));
      // "I missed pottery again tonight" stays a habit; only the plain present is made a plan by a day ahead.
      const plan = matched.every((pattern) => pattern === presentSimple) && DAY_AHEAD.test(sentence.text);
      if (matched.length === 0 || plan) continue;
      found.set(pastime, { content: describe(pastime), sentence, about: pastime });
    }
  }
  return [...found.values()];
}
