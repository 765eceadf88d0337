import type { MemoryCategory } from '../../domain/categories.js';
import type { Analysis, Sentence } from './analysis.js';
import { isName, LISTENER_OWNERS, namedRelative } from './memory-relatives.js';
import { KIN, KIN_WORDS } from './memory-shapes.js';
import type { Statement } from './memory-sources.js';

/**
 * Facts about the wearer that another speaker puts into words: a question the wearer's reply confirms
 * ("Still training for the half marathon?" "Yep."), and the wearer's people named by relation
 * ("your brother Moussa", "Is your wife joining us?" "Kemi's on her way.").
 */
const AFFIRMATIVE =
  /^(?:(?:oh|um|uh|well|ha|haha)[\s,]+)*(?:yes|yeah|yep|yup|ya|still|sure|of course|definitely|absolutely|mm-?hm|correct|exactly|indeed|that's right|i am|i do|i have|i still|always|every)\b/i;
const TAG = /(?:,?\s*(?:right|still|yeah|no|correct|huh|then|now|these days|again))+\s*\?*$/i;
// Words a question may open with: "And are you…", "Also, are you…", "By the way, you still…".
const OPENER = '^(?:(?:and|so|but|oh|wait|also|anyway|now|okay|ok|well|by the way)[\\s,]+)*';
const opened = (body: string): RegExp => new RegExp(`${OPENER}${body}$`, 'i');
// "Still the Gastown place?" names a place without its preposition: no state to turn into a fact.
const STATE = '(?:\\w+ing|in|at|on|with|from|into|a|an|not|off)\\b';
const QUESTION_SHAPES: ReadonlyArray<[RegExp, string]> = [
  // "How long have you played basketball?" presumes that the listener has.
  [/^(?:and |so |hey,? )?how long have you\s+(.+)$/i, "I've $1"],
  [/^(?:and |so |hey,? )?how long are you\s+(.+)$/i, "I'm $1"],
  [opened("(?:are you|you're|you are)\\s+(.+)"), "I'm $1"],
  [opened("(?:have you|you've|you have)\\s+(.+)"), "I've $1"],
  [opened('(?:were you|you were)\\s+(.+)'), 'I was $1'],
  // "You still in Dakar?", "You still doing the classes?": the copula left out.
  [opened(`you\\s+((?:still\\s+)?${STATE}.+)`), "I'm $1"],
  [opened('(?:do you|you)\\s+(.+)'), 'I $1'],
  [opened('still\\s+(\\w+ing\\b.+)'), "I'm still $1"],
  [opened('still\\s+((?:in|at|on|with|from|into|a|an|not|off)\\b.+)'), "I'm still $1"],
  // "Still allergic to penicillin?", "Still vegetarian?": an adjective or a noun phrase takes "I'm".
  [
    opened(
      'still\\s+((?:[a-z]+(?:ic|al|ive|ous|ant|ent|ible|able|ian|less|ful)|vegetarian|vegan|single|married|sober)\\b.*)',
    ),
    "I'm still $1",
  ],
  [opened('still\\s+(?!the\\b)(.+)'), 'I still $1'],
];

// "Arjun is your partner?": a name the asker puts to one of the listener's people.
const NAMED_RELATION = new RegExp(`^(?:and |so )?(\\p{Lu}\\p{Ll}+) is your (${KIN_WORDS})$`, 'iu');
// "Is this Bao's mom?": the listener is someone's parent.
const CHILD_OF =
  /^(?:hi,? |hello,? )?(?:is this|are you) ((?:\p{Lu}\p{Ll}+ ){1,2}?\p{Lu}[\p{L}-]*'s (?:mom|mum|mother|dad|father|parent|wife|husband|partner))$/u;
// "Still in Dakar?" after "How's your brother?": the subject is the relation the turn asked after.
const TOPIC_SHAPES = (topic: string): ReadonlyArray<[RegExp, string]> => [
  [opened(`still\\s+(${STATE}.+)`), `${topic} is still $1`],
  [opened("(?:is (?:he|she)|(?:he|she)'s)\\s+(.+)"), `${topic} is $1`],
];

// "And the pottery, are you still going?", "And the tabla, you're still playing?": the pursuit said first.
const FRONTED_PURSUIT = new RegExp(
  `${OPENER}(?:the|your) ([\\p{L}' -]{2,30}?),\\s+(?:are you|you're|you are|do you|you) still (\\p{L}+)(?: it)?$`,
  'iu',
);

function pursuitStatement(thing: string, verb: string): string {
  const what = thing.replace(/^your /i, '');
  if (/^(?:going|doing|go|do)$/i.test(verb)) return `I'm still doing ${what}`;
  return /ing$/i.test(verb) ? `I'm still ${verb} the ${what}` : `I still ${verb} the ${what}`;
}

/** "Are you still vegetarian?" → "I'm still vegetarian"; null when the question is not about the listener. */
export function questionAsStatement(question: string, topic: string | null = null): string | null {
  const bare = question
    .trim()
    .replace(/^(?:wait|hey|sorry|hang on|hold on|remind me|tell me|just checking|quick question)[,!:]?\s+/i, '')
    // "Before I prescribe anything, are you allergic…?": a fronted circumstance of the asker's is not asked.
    .replace(
      /^(?:and |so |now,? )?(?:before|since|while|as|if|when) [^,?]{2,40},\s+(?=(?:are|do|have|did|were|is) you\b)/i,
      '',
    )
    // "Anh, you don't eat beef, right?": the name a tagged question opens with is whom it asks.
    .replace(/^\p{Lu}\p{Ll}+,\s+(?=you\b[^?]*,\s*(?:right|correct|yeah|no)\s*\?$)/u, '')
    .replace(TAG, '')
    .replace(/[?.!]+$/, '');
  const pursuit = FRONTED_PURSUIT.exec(bare);
  if (pursuit !== null) return pursuitStatement(pursuit[1], pursuit[2]);
  const relation = NAMED_RELATION.exec(bare);
  if (relation !== null) return `my ${relation[2].toLowerCase()} is ${relation[1]}`;
  const parent = CHILD_OF.exec(bare);
  if (parent !== null) return `I'm ${parent[1]}`;
  const shapes = topic === null ? QUESTION_SHAPES : [...TOPIC_SHAPES(topic), ...QUESTION_SHAPES];
  for (const [pattern, replacement] of shapes) {
    if (!pattern.test(bare)) continue;
    return bare
      .replace(pattern, replacement)
      .replace(/\byour\b/gi, 'my')
      .replace(/\byourself\b/gi, 'myself');
  }
  return null;
}

// A yes within the first words of the reply: "October, yes.", "Haha, yes, every Tuesday night".
const YES_WORD = /\b(?:yes|yeah|yep|yup|sure|definitely|absolutely|correct|exactly|indeed|still|always)\b/i;
export const NO_FIRST = /^(?:no|nope|nah|not|never)\b/i;

function confirms(reply: Sentence): boolean {
  const text = reply.text.trim();
  if (AFFIRMATIVE.test(text)) return true;
  const head = text.split(/\s+/).slice(0, 4).join(' ');
  return !NO_FIRST.test(text) && YES_WORD.test(head);
}

/** The turn's questions its reply can answer: those among the turn's final two sentences, last first. */
function closingQuestions(analysis: Analysis, lastIndex: number): number[] {
  const found: number[] = [];
  for (let index = lastIndex; index >= Math.max(0, lastIndex - 1); index--) {
    const sentence = analysis.sentences[index];
    if (sentence?.turn !== analysis.sentences[lastIndex]?.turn) break;
    if (sentence.text.trim().endsWith('?')) found.push(index);
  }
  return found;
}

// "You're still not doing the dairy?" "No dairy, no.": a no agrees with a negative question.
const NEGATIVE_QUESTION = /\b(?:not|never|no longer)\b|n't\b/i;

// "Still driving the tram?" "Line 5, six years now.": a question that presumes the fact needs only no denial.
const PRESUMES = /\bstill\b|^(?:and |so |hey,? )?how long\b/i;
export const DENIAL = /\b(?:not anymore|no longer|not really|quit|stopped|gave (?:it |that )?up|dropped (?:it|out))\b/i;

function agrees(question: Sentence, reply: Sentence[]): boolean {
  if (reply.some(confirms)) return true;
  // "You don't eat beef, right?" "Right.": the tag's own word, said back, confirms.
  if (/,\s*right\s*\?$/i.test(question.text) && /^(?:right|true)\b/i.test(reply[0]?.text.trim() ?? '')) return true;
  const first = reply[0]?.text.trim() ?? '';
  if (PRESUMES.test(question.text) && first !== '' && !NO_FIRST.test(first) && !DENIAL.test(first)) return true;
  if (reply[0] !== undefined && (elaborates(reply[0]) || echoes(question, reply[0]))) return true;
  return NEGATIVE_QUESTION.test(question.text) && NO_FIRST.test(reply[0]?.text.trim() ?? '');
}

/** "You're a nurse, right?" "ICU nurse, at the Mater.": a reply that opens by saying the asked-about thing again. */
function echoes(question: Sentence, reply: Sentence): boolean {
  if (NO_FIRST.test(reply.text.trim()) || CORRECTION.test(reply.text)) return false;
  const asked = new Set(
    question.tokens.filter((token) => token.pos === 'NOUN' && token.normal !== 'right').map((token) => token.lemma),
  );
  const opening = reply.tokens.filter((token) => token.kind === 'word').slice(0, 3);
  return opening.some((token) => token.pos === 'NOUN' && asked.has(token.lemma));
}

// Phrases that open a reply by placing or timing what was asked: "In Fuerteventura, almost ten years".
const ELABORATING_TAGS = new Set(['ADP', 'NUM']);
const CORRECTION = /\b(?:actually|not|no|never|used to|anymore|was|wish)\b|\?/i;

/**
 * "Wait, you were a surf instructor?" "In Fuerteventura, almost ten years.": a reply that goes straight
 * on to where or how long agrees without a yes; a correction ("Actually, a paramedic") does not.
 */
function elaborates(reply: Sentence): boolean {
  const words = reply.tokens.filter((token) => token.kind === 'word' || token.kind === 'number');
  const first = words[0];
  if (first === undefined || CORRECTION.test(reply.text)) return false;
  return (
    ELABORATING_TAGS.has(first.pos) ||
    first.kind === 'number' ||
    /^(?:for|since|about|almost|nearly|over)$/.test(first.normal)
  );
}

/** The phrase an elaborating reply opens with, up to where a clause of its own starts. */
function elaboration(reply: Sentence): string | undefined {
  if (!elaborates(reply)) return undefined;
  const phrase = reply.text
    .trim()
    .split(/,?\s+(?:before|after|when|because|but|and|so) (?=I\b)|[.!;]/)[0]
    .replace(/[,.]+$/, '')
    .trim();
  const words = phrase.split(/\s+/);
  return words.length > 10 || /\b(?:I|I'm|I've|me|my)\b/.test(phrase) ? undefined : phrase;
}

/** What the reply adds after its yes, when it is a phrase: "Yes, last year." → "last year". */
function replyDetail(reply: Sentence | undefined): string | undefined {
  if (reply === undefined) return undefined;
  // "Do you still surf?" "Every Sunday morning, at Las Canteras, if the waves are okay.": how often is the yes.
  const often = /^(?:every|always|most|usually)\b[^?]*?(?=,?\s+(?:if|when|unless|but|as long as)\b|[.!]?$)/i.exec(
    reply.text.trim(),
  );
  // "Every weekend, Aaji.": a name after the comma addresses the asker.
  if (often !== null && !/\b(?:I|I'm|I've)\b/.test(often[0]))
    return often[0].replace(/,\s*\p{Lu}\p{Ll}+$/u, '').replace(/[,.!]+$/, '');
  const words = reply.tokens.filter((token) => token.kind === 'word');
  const yes = words.findIndex((token, index) => index < 3 && YES_WORD.test(token.normal));
  if (yes === -1) return elaboration(reply);
  const rest = words.slice(yes + 1);
  if (rest.length === 0 || rest.length > 10) return undefined;
  // "Yes, Abah.": a lone name after the yes addresses the asker.
  if (rest.length === 1 && rest[0].pos === 'PROPN') return undefined;
  if (rest.some((token) => ['VERB', 'AUX', 'PRON'].includes(token.pos) || /^i'/.test(token.normal))) return undefined;
  const from = reply.text.indexOf(rest[0].value, reply.text.search(YES_WORD));
  return reply.text
    .slice(from)
    .replace(/[.!?]+$/, '')
    .trim();
}

const YOUR_KIN = new RegExp(`\\byour ((?:little |big |older |younger )?${KIN_WORDS}s?)\\b`, 'i');

/**
 * Who a subjectless question is about: "How's your brother? Moussa, right? Still in Dakar?" asks
 * after the brother, not the listener. The relation (and a name said with it) from earlier in the turn.
 */
function topicOfTurn(analysis: Analysis, questionIndex: number): string | null {
  const turn = analysis.sentences[questionIndex]?.turn;
  for (let index = questionIndex - 1; index >= Math.max(0, questionIndex - 3); index--) {
    const sentence = analysis.sentences[index];
    if (sentence === undefined || sentence.turn !== turn) break;
    const kin = YOUR_KIN.exec(sentence.text);
    if (kin === null) continue;
    const later = analysis.sentences.slice(index, questionIndex).flatMap((each) => each.tokens);
    const name = later.find(isName);
    return `my ${kin[1].toLowerCase()}${name === undefined ? '' : ` ${name.value}`}`;
  }
  return null;
}

/** Another speaker's questions about the wearer (or the wearer's people) that the wearer's reply confirms. */
const ON_A_DAY =
  /\b(?:(?:on|this|next) (?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|tonight|this (?:evening|afternoon|weekend)|at \d{1,2}(?::\d\d)?(?:\s*[ap]m)?)\b/i;

export function confirmedQuestions(analysis: Analysis): Statement[] {
  if (!analysis.dialogue || analysis.attribution === 'absent') return [];
  const statements: Statement[] = [];
  analysis.sentences.forEach((sentence, index) => {
    const next = analysis.sentences[index + 1];
    if (sentence.isUser || next === undefined || next.turn === sentence.turn || !next.isUser) return;
    const reply = analysis.sentences.slice(index + 1, index + 3).filter((each) => each.turn === next.turn);
    for (const asked of closingQuestions(analysis, index)) {
      const question = analysis.sentences[asked];
      const text = questionAsStatement(question.text, topicOfTurn(analysis, asked));
      // "Are you still coming to my book club on Tuesday at 7?": a plan for a day is an event, no fact.
      if (text === null || ON_A_DAY.test(question.text)) continue;
      if (agrees(question, reply))
        statements.push({ text, sentence: question, secondHand: true, detail: replyDetail(reply[0]) });
      break;
    }
  });
  return statements;
}

export interface NamedRelation {
  content: string;
  category: MemoryCategory;
  sentence: Sentence;
}

/** The first word of a sentence when it is a name: "Kemi's on her way", "Moussa, right?". */
function leadingName(sentence: Sentence | undefined): string | null {
  const words = sentence?.tokens.filter((token) => token.kind === 'word') ?? [];
  // "Little Ama?": a fond adjective before the name.
  const first = /^(?:little|big|baby|young|old)$/.test(words[0]?.normal ?? '') ? words[1] : words[0];
  // "Lucas is your husband?" "Fiancé.": a relation corrected, not a name.
  return isName(first) && !KIN.test(first.value) ? first.value : null;
}

/**
 * People of the wearer's named by someone else: "your brother Moussa", or "your wife" named by the next
 * sentence ("Is your wife joining us?" "Kemi's on her way." / "How's your brother? Moussa, right?").
 */
export function relationsNamedInDialogue(analysis: Analysis): NamedRelation[] {
  if (!analysis.dialogue || analysis.attribution === 'absent') return [];
  const relations: NamedRelation[] = [];
  analysis.sentences.forEach((sentence, index) => {
    if (sentence.isUser) return;
    const said = namedRelative(sentence.tokens, LISTENER_OWNERS);
    if (said?.content !== undefined) {
      relations.push({ content: said.content, category: said.category, sentence });
      return;
    }
    const kin = YOUR_KIN.exec(sentence.text);
    if (kin === null || !sentence.text.trim().endsWith('?')) return;
    const next = analysis.sentences[index + 1];
    const name = leadingName(next);
    const sameAsker = next?.turn === sentence.turn && !next.isUser;
    const reply = next?.isUser === true && next.turn === sentence.turn + 1;
    if (name === null || !(sameAsker || reply)) return;
    relations.push({ content: `User's ${kin[1].toLowerCase()} is named ${name}`, category: 'core', sentence });
  });
  return relations;
}
