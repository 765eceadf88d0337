import type { Analysis, Sentence } from './analysis.js';
import type { Token } from './nlp.js';

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
}

// A lead-in of up to five words that ends where the first-person clause starts.
const LEAD_IN = /^((?:[\p{L}'-]+[,.]?\s+){1,5}?)(?=(?:I|I'm|I've|I'd)\b)/u;
// Lead-ins that make the clause not a fact: conditions, questions, reports of a wish.
const NOT_A_LEAD_IN =
  /\b(?:if|when|whether|unless|because|what|how|why|where|would|could|should|wish|hope|maybe|think)\b/i;

/** The clause from its first-person subject on, when a short lead-in comes before it. */
export function withoutLeadIn(clause: string): string {
  if (/^(?:I|my)\b/.test(clause)) return clause;
  const match = LEAD_IN.exec(clause);
  if (match === null || NOT_A_LEAD_IN.test(match[1])) return clause;
  return clause.slice(match[1].length);
}

/** The sentence's tokens that fall inside one of its clauses (clauses are substrings of the sentence). */
export function tokensOfClause(sentence: Sentence, clause: string): Token[] {
  const start = sentence.text.indexOf(clause);
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

const AFFIRMATIVE =
  /^(?:(?:oh|um|uh|well|ha|haha)[\s,]+)*(?:yes|yeah|yep|yup|ya|still|sure|of course|definitely|absolutely|mm-?hm|correct|exactly|indeed|that's right|i am|i do|i have|i still|always|every)\b/i;
const TAG = /(?:,?\s*(?:right|still|yeah|no|correct|huh|then|now|these days|again))+\s*\?*$/i;
const QUESTION_SHAPES: ReadonlyArray<[RegExp, string]> = [
  [/^(?:and|so|but|oh)?[\s,]*(?:are you|you're|you are)\s+(.+)$/i, "I'm $1"],
  [/^(?:and|so|but|oh)?[\s,]*(?:have you|you've|you have)\s+(.+)$/i, "I've $1"],
  // "You still in Dakar?", "You still doing the classes?": the copula left out.
  [/^(?:and|so|but|oh)?[\s,]*you\s+((?:still\s+)?(?:\w+ing|in|at|on|with|from|into|a|an|the|not|off)\b.+)$/i, "I'm $1"],
  [/^(?:and|so|but|oh)?[\s,]*(?:do you|you)\s+(.+)$/i, 'I $1'],
  [/^(?:and|so|but|oh)?[\s,]*still\s+(\w+ing\b.+)$/i, "I'm still $1"],
  [/^(?:and|so|but|oh)?[\s,]*still\s+((?:in|at|on|with|from|into|a|an|the|not|off)\b.+)$/i, "I'm still $1"],
  [/^(?:and|so|but|oh)?[\s,]*still\s+(.+)$/i, 'I still $1'],
];

/** "Are you still vegetarian?" → "I'm still vegetarian"; null when the question is not about the listener. */
export function questionAsStatement(question: string): string | null {
  const bare = question
    .trim()
    .replace(TAG, '')
    .replace(/[?.!]+$/, '');
  for (const [pattern, replacement] of QUESTION_SHAPES) {
    if (!pattern.test(bare)) continue;
    return bare
      .replace(pattern, replacement)
      .replace(/\byour\b/gi, 'my')
      .replace(/\byourself\b/gi, 'myself');
  }
  return null;
}

/** Another speaker's questions about the wearer that the wearer's next turn confirms. */
export function confirmedQuestions(analysis: Analysis): Statement[] {
  if (!analysis.dialogue || analysis.attribution === 'absent') return [];
  const statements: Statement[] = [];
  analysis.sentences.forEach((sentence, index) => {
    if (sentence.isUser || !sentence.text.trim().endsWith('?')) return;
    // Only the question that ends the turn is the one the reply answers.
    const endsTurn = analysis.sentences[index + 1]?.turn !== sentence.turn;
    if (!endsTurn || analysis.turns[sentence.turn + 1]?.isUser !== true) return;
    const reply = analysis.sentences[index + 1];
    if (reply === undefined || !AFFIRMATIVE.test(reply.text.trim())) return;
    const text = questionAsStatement(sentence.text);
    if (text !== null) statements.push({ text, sentence, secondHand: true });
  });
  return statements;
}

// "But your cholesterol is high": a finding about the listener, stated by someone who knows.
const YOUR_THING =
  /(?:^|[,.]\s*|\bbut\s+|\band\s+)your ((?:[a-z-]+ ){0,2}[a-z-]+) (is|are) ((?:very |quite |a bit |slightly |too )?[a-z-]+(?: [a-z-]+)?)\s*[,.!]?$/i;
const SAID_OF_LISTENER = /(?:^|,\s*|\bbecause\s+|\bsince\s+)(?:you're|you are)\s+([^,;.!?]+)/i;

/** "Because you're rhesus negative, …": what another speaker states as a fact about the wearer. */
export function saidOfWearer(analysis: Analysis): Statement[] {
  if (!analysis.dialogue || analysis.attribution === 'absent') return [];
  const statements: Statement[] = [];
  for (const sentence of analysis.sentences) {
    if (sentence.isUser || sentence.text.trim().endsWith('?')) continue;
    const match = SAID_OF_LISTENER.exec(sentence.text);
    // "You're a star", "you're the best" praise; only a bare predicate ("rhesus negative") states a fact.
    if (match !== null && !/^(?:a|an|the|so|such|my|our|too|very|really|right|welcome)\b/i.test(match[1].trim()))
      statements.push({ text: `I'm ${match[1].trim()}`, sentence, secondHand: true });
    const owned = YOUR_THING.exec(sentence.text);
    if (owned !== null)
      statements.push({ text: `my ${owned[1]} ${owned[2]} ${owned[3].trim()}`, sentence, secondHand: true });
  }
  return statements;
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
  if (words.some(verbal)) return false;
  return words.some((token) => (token.pos === 'NOUN' || token.pos === 'PROPN') && !TIME_WORD.test(token.normal));
}

const GREETING =
  /^(?:hi|hello|hey|good (?:morning|afternoon|evening)|bonjour|morning|thanks|thank you|yes|yeah|yep|no|nope|mm|um)\b/i;
const TIME_WORD =
  /^(?:\w+day|morning|afternoon|evening|night|week|weeks|month|months|year|years|times?|minutes?|hours?|today|tomorrow|january|february|march|april|may|june|july|august|september|october|november|december|\w+(?:th|st|nd|rd))$/;
// A question about the listener's own things: "What's your job?", "Any allergies?", "Which dog is yours?"
const ABOUT_LISTENER =
  /\byour\b|^(?:and |so |oh )?(?:any|what do you|what kind of|which|do you|are you|where do you|where are you)\b/i;

export interface Answer {
  topic: string;
  answer: string;
  sentence: Sentence;
}

/** "What's the dog?" "Bella, a springer spaniel.": another speaker asks, the wearer answers in a phrase. */
export function answeredQuestions(analysis: Analysis): Answer[] {
  if (!analysis.dialogue || analysis.attribution === 'absent') return [];
  const answers: Answer[] = [];
  analysis.sentences.forEach((sentence, index) => {
    if (sentence.isUser || !sentence.text.trim().endsWith('?') || !ABOUT_LISTENER.test(sentence.text)) return;
    const reply = analysis.sentences[index + 1];
    if (reply === undefined || !reply.isUser || reply.turn !== sentence.turn + 1 || !ellipticalAnswer(reply)) return;
    const topic = questionTopic(sentence.tokens);
    if (topic === null) return;
    const answer = reply.text.replace(/^(?:(?:yes|yeah|no|um|uh|oh|well|so)[,\s]+)+/i, '').replace(/[.!]+$/, '');
    answers.push({ topic, answer, sentence: reply });
  });
  return answers;
}
