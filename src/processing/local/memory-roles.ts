import type { Analysis, Sentence } from './analysis.js';
import { isProfession } from './memory-patterns.js';
import { namesPerson } from './noun-kinds.js';

/**
 * A role the wearer holds, shown by how it is used rather than stated: "So, as treasurer, my jobs",
 * "Wanjiru, as treasurer, can you send the statement?", "One more thing, treasurer sahib", "Madam
 * Chair", a profession the wearer is lumped in with ("You teachers, always so busy"), whom they work
 * under ("my head teacher") and the living they drive for ("I'm driving Uber").
 */

export interface RoleFact {
  content: string;
  sentence: Sentence;
}

// Offices of a club, a committee or a team: held by one person, so "the treasurer".
const OFFICE =
  '(?:treasurer|secretary|chair|chairperson|chairman|chairwoman|president|vice-president|captain|vice-captain|vice captain|coach|organi[sz]er|convenor|convener|warden|steward|team lead|head girl|head boy|class rep|rep)';
// "as treasurer, …", "as the captain, …", "as a parent, …": the role the sentence speaks from.
const AS_ROLE = /(?:^|[,.!?;:]\s*|\b(?:so|and|but|well),?\s+)as (the |a |an )?([\p{L}-]+(?: [\p{L}-]+)?),/iu;
// "treasurer sahib", "Madam Chair", "Mr President", "Coach": the role used as a form of address.
const ADDRESSED = new RegExp(
  `\\b(?:madam|madame|mister|mr\\.?|ma'am|sir) (${OFFICE})\\b|\\b(${OFFICE}) (?:sahib|saab|ji|ma'am|madam|sir)\\b`,
  'i',
);
const OFFICE_WORD = new RegExp(`^${OFFICE}$`, 'i');
// "Yes, captain.", "And the summer league, captain.": the office alone, called out at the end.
const CALLED = new RegExp(`(?:^|,\\s*)(${OFFICE})[.!?]?$`, 'i');
// "…otherwise the parents blame the coach, which is me": the wearer naming their own office.
const WHICH_IS_ME = new RegExp(`\\bthe (${OFFICE}),? (?:which|who|that)(?:'s| is) me\\b`, 'i');
// "You teachers, always so busy": a plural profession the wearer is put among.
const YOU_ALL = /\byou ([\p{L}-]+s)\b(?!['’])/iu;
// Stages of life and ways of being present, which WordNet files as persons but which name no role.
const NO_ROLE =
  /^(?:kid|child|teenager|teen|adult|boy|girl|baby|youngster|grown-up|human|person|woman|man|friend|guest|customer|outsider|beginner|foreigner|newbie|newcomer|matter|result|rule|reminder|favour|favor|aside|example|whole|usual)$/i;

function asRole(sentence: Sentence, dialogue: boolean): string | null {
  const match = AS_ROLE.exec(sentence.text);
  if (match === null) return null;
  const [, article, phrase] = match;
  const head = phrase.toLowerCase().split(' ').at(-1) ?? '';
  if (NO_ROLE.test(head) || !(namesPerson(head) || OFFICE_WORD.test(phrase))) return null;
  // The wearer's own "as treasurer, my jobs", or someone asking the wearer "as treasurer, can you …".
  const toWearer = !sentence.isUser && dialogue && /\b(?:you|your)\b/i.test(sentence.text);
  if (!sentence.isUser && !toWearer) return null;
  if (sentence.isUser && !/\b(?:I|my|me|I'm|I've|I'll)\b/.test(sentence.text)) return null;
  const role = phrase.toLowerCase();
  return article === undefined || article.trim().toLowerCase() === 'the'
    ? `User is the ${role}`
    : `User is ${article.trim().toLowerCase()} ${role}`;
}

// "I'll need to ask my head teacher for the day", "my fellow nurses": whom the wearer works under or
// beside says what they do.
const WORKS_AMONG = /\bmy (?:head|fellow|senior|charge) (teacher|nurse|midwife|paramedic|carer|driver)s?\b/i;
// "Since the layoff I'm driving Uber", "I drive for Bolt at night": the wearer's living.
const DRIVES_FOR =
  /\bI(?:'m| am)? (?:now |still |also )?driv(?:e|ing) (?:for )?(Uber|Lyft|Bolt|Grab|Didi|Ola|Careem|Deliveroo|a taxi|a cab)\b/i;

function roleOfSentence(sentence: Sentence, dialogue: boolean, answered: boolean): string | null {
  const as = asRole(sentence, dialogue);
  if (as !== null) return as;
  const mine = sentence.isUser ? WHICH_IS_ME.exec(sentence.text) : null;
  if (mine !== null) return `User is the ${mine[1].toLowerCase()}`;
  const among = sentence.isUser ? WORKS_AMONG.exec(sentence.text) : null;
  if (among !== null) return `User is a ${among[1].toLowerCase()}`;
  const drives = sentence.isUser ? DRIVES_FOR.exec(sentence.text) : null;
  if (drives !== null) return `User drives ${/^a /i.test(drives[1]) ? drives[1].toLowerCase() : `for ${drives[1]}`}`;
  if (sentence.isUser || !dialogue) return null;
  // An office called out is the wearer's only when the wearer is who answers.
  const addressed = ADDRESSED.exec(sentence.text) ?? (answered ? CALLED.exec(sentence.text.trim()) : null);
  if (addressed !== null) return `User is the ${(addressed[1] ?? addressed[2]).toLowerCase()}`;
  const all = YOU_ALL.exec(sentence.text);
  const singular = all?.[1].toLowerCase().replace(/s$/, '') ?? '';
  if (all !== null && isProfession([singular]) && namesPerson(singular)) {
    return `User is ${/^[aeiou]/.test(singular) ? 'an' : 'a'} ${singular}`;
  }
  return null;
}

/** The roles the conversation shows the wearer holding, once each. */
export function rolesOfWearer(analysis: Analysis): RoleFact[] {
  if (analysis.attribution === 'absent') return [];
  const found = new Map<string, RoleFact>();
  for (const sentence of analysis.sentences) {
    const answered = analysis.turns[sentence.turn + 1]?.isUser === true;
    const content = roleOfSentence(sentence, analysis.dialogue, answered);
    if (content !== null && !found.has(content)) found.set(content, { content, sentence });
  }
  return [...found.values()];
}
