import type { Analysis, Sentence } from './analysis.js';
import { isName } from './memory-relatives.js';
import { KIN } from './memory-shapes.js';
import { parseTokens, type Token } from './nlp.js';

/**
 * Where the wearer's facts are said. Mostly in the wearer's own first-person clauses, which can sit
 * behind a lead-in ("Turns out I'm lactose intolerant", "they said I have sleep apnea"); also in
 * another speaker's question the wearer confirms ("Still training for the half marathon?" "Yep.")
 * or a statement another speaker makes about them ("you're rhesus negative").
 */

export interface Statement {
  /** a first-person clause, as the wearer would say it */
  text: string;
  sentence: Sentence;
  /** said by someone else and confirmed, or said to the wearer */
  secondHand: boolean;
  /** what a confirming reply added: "You got married?" "Yes, last year." → "last year" */
  detail?: string;
}

// A lead-in of up to five words that ends where the first-person clause starts.
const LEAD_IN = /^((?:[\p{L}'-]+[,.]?\s+){1,5}?)(?=(?:I|I'm|I've|I'd)\b)/u;
// Lead-ins that make the clause not a fact: conditions, questions, reports of a wish.
// "Nico and I broke up": a lead-in that ends in "and" is the other half of the subject.
const NOT_A_LEAD_IN =
  /\b(?:if|when|whether|unless|because|what|how|why|where|would|could|should|wish|hope|maybe|think)\b|\band\s+$/i;

// "I found out I'm lactose intolerant": a report of learning a fact about oneself; the fact follows.
const LEARNT = /^I (?:found out|realized|realised|learned|learnt|discovered|was told|figured out)(?: that)? (?=I\b)/;

// "Growing up in Perth, …", "being a flight attendant with IBS": a participle whose subject is the speaker.
const PARTICIPLES: ReadonlyArray<[RegExp, string]> = [
  [/^growing up (in|on|near|with)\b/i, 'I grew up $1'],
  [/^being (an?) /i, "I'm $1 "],
  // "When I taught English in Nagoya for two years, …": a period of the wearer's life, told in passing.
  [
    /^(?:back )?when I (taught|lived|worked|studied|grew up|moved|trained|served|left|joined|quit|ran|started)\b/i,
    'I $1',
  ],
];
// "I actually live in…", "I originally trained as…", "I still don't eat meat": an adverb between the
// subject and the verb.
const INSERTED = /^I (?:actually|originally|really|also|even|currently|basically|still) (?=\p{Ll})/u;

/** The clause from its first-person subject on, when a short lead-in comes before it. */
// "Saturdays I coach my daughter's cricket team": a weekday in the plural makes a habit of what follows.
const WEEKLY = /^(?:on )?(mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends),? I (.+)$/i;

export function withoutLeadIn(clause: string): string {
  const weekly = WEEKLY.exec(clause);
  if (weekly !== null) {
    const day = weekly[1].toLowerCase();
    return `I ${weekly[2]} on ${day === 'weekends' ? day : day.charAt(0).toUpperCase() + day.slice(1)}`;
  }
  for (const [pattern, replacement] of PARTICIPLES)
    if (pattern.test(clause)) return clause.replace(pattern, replacement);
  if (/^(?:I|my)\b/.test(clause)) return clause.replace(LEARNT, '').replace(INSERTED, 'I ');
  const match = LEAD_IN.exec(clause);
  if (match === null || NOT_A_LEAD_IN.test(match[1])) return clause;
  return clause.slice(match[1].length).replace(LEARNT, '');
}

/** The sentence's tokens that fall inside one of its clauses (clauses are substrings of the sentence). */
export function tokensOfClause(sentence: Sentence, clause: string): Token[] {
  // Case-blind: the clause may have had its "i" capitalised.
  const start = sentence.text.toLowerCase().indexOf(clause.toLowerCase());
  if (start === -1) return [];
  const end = start + clause.length;
  const inside: Token[] = [];
  let cursor = 0;
  for (const token of sentence.tokens) {
    const at = sentence.text.indexOf(token.value, cursor);
    if (at === -1) continue;
    cursor = at + token.value.length;
    if (at >= start && cursor <= end) inside.push(token);
  }
  return inside;
}

// Questions whose words name no noun but whose answer is a lasting fact: where one is from, one's work, one's pastime.
const ASKED_ABOUT: ReadonlyArray<[RegExp, string]> = [
  [/\bwhere (?:are|were) you (?:from|born|raised)\b|\bwhere did you grow up\b|\bwhere(?:'s| is) home\b/i, 'hometown'],
  [/\bwhere do you live\b/i, 'home'],
  [
    /\bwhat do you do (?:for (?:fun|kicks)|when you(?:'re| are) not\b|in your (?:free|spare) time|outside (?:of )?work|at weekends|on weekends)/i,
    'pastime',
  ],
  [/\bwhat do you do(?: for (?:a living|work))?\s*\?*$/i, 'work'],
];

function askedAbout(question: string): string | null {
  return ASKED_ABOUT.find(([pattern]) => pattern.test(question))?.[1] ?? null;
}

const QUESTION_NOUN_SKIP =
  /^(?:thing|things|anything|something|everything|way|time|lot|bit|kind|sort|question|questions|interest)$/i;

/** The first noun phrase of a question, which names what the answer is about ("Any seat preferences?"). */
function questionTopic(tokens: Token[]): string | null {
  const start = tokens.findIndex((token) => token.pos === 'NOUN' && !QUESTION_NOUN_SKIP.test(token.normal));
  // "Do you exercise?" "Cricket.": without a noun, the activity the question names.
  if (start === -1) {
    const verb = tokens.find((token) => token.pos === 'VERB' && !['do', 'be', 'have'].includes(token.lemma));
    return verb === undefined ? null : verb.lemma;
  }
  let end = start + 1;
  while (tokens[end]?.pos === 'NOUN' && end - start < 3) end++;
  const before = tokens[start - 1];
  const first = before !== undefined && (before.pos === 'ADJ' || before.pos === 'NOUN') ? start - 1 : start;
  return tokens
    .slice(first, end)
    .map((token) => token.normal)
    .join(' ');
}

/** A reply without a verb that still names something: "Aisle, always aisle.", "Bella, a springer spaniel." */
function ellipticalAnswer(sentence: Sentence): boolean {
  const words = sentence.tokens.filter((token) => token.kind === 'word');
  if (words.length === 0 || words.length > 8 || GREETING.test(sentence.text)) return false;
  const verbal = (token: Token) => ['VERB', 'AUX', 'PRON'].includes(token.pos) || /^i'/.test(token.normal);
  // wink reads a lone leading noun as an imperative ("Trumpet, in a mariachi."); a comma after it says otherwise.
  const lone = sentence.tokens[1]?.value === ',' && sentence.tokens[0]?.pos === 'VERB';
  if (words.slice(lone ? 1 : 0).some(verbal)) return false;
  return words.some((token) => (token.pos === 'NOUN' || token.pos === 'PROPN') && !TIME_WORD.test(token.normal));
}

const GREETING =
  /^(?:hi|hello|hey|good (?:morning|afternoon|evening)|bonjour|morning|thanks|thank you|yes|yeah|yep|no|nope|mm|um)\b/i;
const TIME_WORD =
  /^(?:\w+day|morning|afternoon|evening|night|week|weeks|month|months|year|years|times?|minutes?|hours?|today|tomorrow|january|february|march|april|may|june|july|august|september|october|november|december|\w+(?:th|st|nd|rd))$/;
// A question about the listener's own things: "What's your job?", "Any allergies?", "Which dog is yours?"
const ABOUT_LISTENER =
  /\byour\b|^(?:and |so |oh )?(?:any|what do you|what kind of|which|do you|are you|where do you|where are you)\b/i;

const IDENTITY_TOPIC = /\b(?:name|number|birth|email|account|card|reference)\b/i;
const ADDRESS =
  /\b(?:street|st|road|rd|avenue|ave|lane|drive|close|way|place|court|crescent|boulevard|apartment|apt|flat|unit)\b/i;
// "Kia ora, Raj", "Just mine, yes", "A little cough, but no fever": a greeting or a denial answers nothing.
const NO_ANSWER =
  /^(?:hi|hello|hey|kia ora|morning|good (?:morning|afternoon|evening)|thanks|thank you)\b|\b(?:yes|no|nope|yeah)$|\bno \w+$/i;

export interface Answer {
  topic: string;
  answer: string;
  sentence: Sentence;
}

/** The reply's phrase and the verbless phrases right after it: "Delivery driver. DPD." → "Delivery driver, DPD". */
function answerPhrase(analysis: Analysis, first: number): string {
  const phrases: string[] = [];
  for (let index = first; index < first + 3; index++) {
    const sentence = analysis.sentences[index];
    if (sentence === undefined || sentence.turn !== analysis.sentences[first]?.turn || !ellipticalAnswer(sentence))
      break;
    phrases.push(
      sentence.text
        .replace(/^(?:(?:yes|yeah|no|um|uh|oh|well|so)[,\s]+)+/i, '')
        .replace(/[.!]+$/, '')
        .replace(/,?\s+(?:mostly|mainly|usually|these days|I guess)$/i, ''),
    );
  }
  return phrases.join(', ');
}

/** "What's the dog?" "Bella, a springer spaniel.": another speaker asks, the wearer answers in a phrase. */
export function answeredQuestions(analysis: Analysis): Answer[] {
  if (!analysis.dialogue || analysis.attribution === 'absent') return [];
  const answers: Answer[] = [];
  analysis.sentences.forEach((sentence, index) => {
    const reply = analysis.sentences[index + 1];
    if (sentence.isUser || reply === undefined || !reply.isUser || reply.turn !== sentence.turn + 1) return;
    // "And do you do any sport? Exercise?": the topic may sit in either of the turn's last two sentences.
    const asked = [analysis.sentences[index - 1], sentence].filter(
      (each): each is Sentence =>
        each !== undefined &&
        each.turn === sentence.turn &&
        each.text.trim().endsWith('?') &&
        ABOUT_LISTENER.test(each.text),
    );
    if (asked.length === 0 || !ellipticalAnswer(reply)) return;
    const topic = asked
      .map((question) => askedAbout(question.text) ?? questionTopic(question.tokens))
      .find((each) => each !== null);
    if (topic === undefined || topic === null) return;
    // "How's your little one taking it?" "Felix?": a reply that asks back answers nothing, unless it
    // names the relative asked after ("Is your brother still renting?" "Tomek?").
    if (reply.text.trim().endsWith('?') && !KIN.test(topic.split(' ').at(-1) ?? '')) return;
    const answer = answerPhrase(analysis, index + 1);
    // "Full name?" "Oluwaseun Adebayo.": the account already knows who the wearer is; an address after it says where they live.
    if (IDENTITY_TOPIC.test(topic) && !ADDRESS.test(answer)) return;
    if (NO_ANSWER.test(answer)) return;
    answers.push({ topic, answer, sentence: reply });
  });
  return answers;
}

/** The verbless phrase right after a sentence of the wearer's that names what it was about ("A beagle, Pepper."). */
export function elaboration(analysis: Analysis, index: number): string | null {
  const sentence = analysis.sentences[index];
  const next = analysis.sentences[index + 1];
  if (sentence === undefined || next === undefined || next.turn !== sentence.turn || !ellipticalAnswer(next))
    return null;
  // It names or qualifies ("A beagle, Pepper.", "Moderate.", "Trumpet, in a mariachi."), not a new topic ("Tax season.").
  const [first, second] = next.tokens;
  const names = ['a', 'an'].includes(first?.normal ?? '') || first?.pos === 'ADJ' || second?.value === ',';
  return names ? next.text.replace(/[.!?]+$/, '').trim() : null;
}

const PLACE_PREPOSITIONS = new Set(['in', 'from', 'to', 'at', 'near']);

/** "the UMC", "the LSE": a place known by its initials. */
function acronym(token: Token | undefined): boolean {
  return token !== undefined && token.pos === 'PROPN' && /^\p{Lu}{2,6}$/u.test(token.value);
}

/** The place a "here" or "there" points back to: "Are you coming up from Florianópolis?", "Peckham is home". */
export function placeNamedBefore(analysis: Analysis, index: number): string | null {
  for (let at = index; at >= Math.max(0, index - 3); at--) {
    const tokens = analysis.sentences[at]?.tokens.filter((token) => token.kind === 'word') ?? [];
    for (let end = tokens.length - 1; end >= 0; end--) {
      if (!isName(tokens[end]) && !acronym(tokens[end])) continue;
      let start = end;
      while (start > end - 2 && isName(tokens[start - 1])) start--;
      // "to the UMC": an article may stand between the preposition and the name, and stays.
      const article = tokens[start - 1]?.normal === 'the' ? 1 : 0;
      const before = tokens[start - 1 - article]?.normal ?? '';
      const home = tokens[end + 1]?.lemma === 'be' && tokens[end + 2]?.normal === 'home';
      if (PLACE_PREPOSITIONS.has(before) || home)
        return tokens
          .slice(start - article, end + 1)
          .map((token) => token.value)
          .join(' ');
      end = start;
    }
  }
  return null;
}

// An answer that says how much or how it went names no thing: "Do you use a computer a lot?" "All day."
const VERDICT_ANSWER =
  /^(?:good|fine|great|okay|ok|quiet|bad|better|worse|busy|crazy|mad|all|every|each|heaps|lots|loads|not (?:bad|great|much)|so-so)\b/i;

/** An answer naming a thing ("In Headingley"), not an amount, a verdict or a circumstance ("As a kid, heaps."). */
function namesAThing(answer: string): boolean {
  const tokens = parseTokens(answer);
  return !VERDICT_ANSWER.test(answer) && !(tokens[0]?.pos === 'ADP' && !tokens.some((token) => token.pos === 'PROPN'));
}

/** "What do you do for fun?" "Pickleball.": the answer stored under what was asked. */
export function answeredFacts(analysis: Analysis) {
  return answeredQuestions(analysis)
    .filter((answer) => namesAThing(answer.answer))
    .map((answer) => ({
      content: `User's ${answer.topic}: ${answer.answer}`,
      category: 'lifestyle' as const,
      sentence: answer.sentence,
      source: answer.answer,
    }));
}
