import type { MemoryCategory } from '../../domain/categories.js';
import type { Analysis, Sentence } from './analysis.js';
import { askedAfter } from './memory-asked.js';
import { bodyFacts } from './memory-body.js';
import { complete } from './memory-checks.js';
import {
  asksSomething,
  asWearer,
  clausesOf,
  dayAheadBefore,
  MAX_WORDS,
  NOT_A_FACT,
  POINTER,
  readsRecord,
  resolvePointer,
  rewrite,
  trimFact,
  withoutPlaceHere,
} from './memory-clauses.js';
import { clinicFacts } from './memory-clinic.js';
import { confirmedQuestions, relationsNamedInDialogue } from './memory-confirmations.js';
import { householdFacts } from './memory-family.js';
import { fragmentStates } from './memory-fragments.js';
import { kinPlaces } from './memory-kin-places.js';
import { lexicalFact } from './memory-lexical.js';
import { pastimesKept } from './memory-pastimes.js';
import { BELONGING_WORD, FACT_PATTERNS } from './memory-patterns.js';
import { namesHeld, peopleOfWearer } from './memory-people.js';
import {
  employerFact,
  favoriteFact,
  homeFact,
  householdFact,
  INTRODUCED_KIN,
  identityFact,
  KIN_NAMED,
  kinWord,
  lifeSpan,
  NAMED_KIN,
  pairFact,
  placeReply,
  roleFact,
  withNamesCounted,
} from './memory-phrasings.js';
import { namedRelative, relativeFact } from './memory-relatives.js';
import { rolesOfWearer } from './memory-roles.js';
import { shapeOf } from './memory-shapes.js';
import { answeredFacts, elaboration, type Statement, tokensOfClause } from './memory-sources.js';
import { saidOfWearer, spansSaidToWearer } from './memory-told.js';
import { parseTokens, type Token } from './nlp.js';

/** Which mechanism proposed a fact: the memory model weighs them differently. */
// The memory model's features follow this order: keep it when adding a kind, and retrain.
export const FACT_KINDS = [
  'pattern',
  'shape',
  'profession',
  'employer',
  'home',
  'favorite',
  'relative',
  'span',
  'named',
  'confirmed',
  'told',
  'answered',
  'dialogue',
  'people',
  'asked',
  'lexical',
  'body',
] as const;
export type FactKind = (typeof FACT_KINDS)[number];

export interface Fact {
  content: string;
  category: MemoryCategory;
  kind: FactKind;
  order: number;
  /** the first-person clause it came from, which wink tags more reliably than the rewrite */
  source: string;
  /** the one thing a fact found by its noun is about ("drums"), which another kept fact may say already */
  about?: string;
}

function factFromClause(clause: string, tokens: Token[]): Omit<Fact, 'order'> | null {
  const kin = NAMED_KIN.exec(clause);
  if (kin !== null)
    return {
      content: `User's ${kin[2].toLowerCase()} is named ${kin[1]}`,
      category: 'core',
      kind: 'named',
      source: clause,
    };
  const introduced = INTRODUCED_KIN.exec(clause);
  if (introduced !== null && tokens.find((token) => token.value === introduced[2])?.pos === 'PROPN')
    return {
      content: `User's ${introduced[1].toLowerCase()} is named ${introduced[2]}`,
      category: 'core',
      kind: 'named',
      source: clause,
    };
  const named = KIN_NAMED.exec(clause);
  // The name must read as one: wink's proper noun, and no faith or nationality ("My dad is Polish").
  const nameToken = named === null ? undefined : tokens.find((token) => token.value === named[2]);
  if (named !== null && nameToken?.pos === 'PROPN' && !BELONGING_WORD.test(named[2]))
    return {
      content: `User's ${kinWord(named[1])} is named ${named[2]}`,
      category: 'core',
      kind: 'named',
      source: clause,
    };
  const pair = pairFact(clause);
  if (pair !== null) return { content: trimFact(pair), category: 'core', kind: 'relative', source: clause };
  const owned = householdFact(clause);
  if (owned !== null) return { content: trimFact(owned), category: 'core', kind: 'pattern', source: clause };
  const home = homeFact(clause);
  if (home !== null) return { content: home, category: 'core', kind: 'home', source: clause };
  const favorite = favoriteFact(clause);
  if (favorite !== null)
    return { content: trimFact(favorite), category: 'interests', kind: 'favorite', source: clause };
  const identity = identityFact(clause);
  if (identity !== null) return { content: rewrite(clause), category: identity, kind: 'profession', source: clause };
  // "We live in Leith", "we've got three kids": the household's fact is the wearer's too.
  const own = asWearer(clause);
  for (const { pattern, category } of FACT_PATTERNS) {
    const match = pattern.exec(own);
    if (match === null) continue;
    const resolved = typeof category === 'function' ? category(match) : category;
    // "We moved from Osaka in July": the household's move is the wearer's too.
    return { content: rewrite(own), category: resolved, kind: 'pattern', source: clause };
  }
  const shape = shapeOf(tokens);
  return shape === null ? null : { content: rewrite(clause), category: shape.category, kind: 'shape', source: clause };
}

const ERRAND_WITH_KIN = /^User (?!is\b|was\b|has\b|had\b|lives\b|loves\b|misses\b)[a-z]+s their [a-z]+ \p{Lu}/u;

function factsOf(sentence: Sentence, order: number, repliesToQuestion = false, readingRecord = false): Fact[] {
  // In "I'm pregnant, so the goat one, is that okay?" only the last clause asks.
  const asks = asksSomething(sentence.text);
  const clauses = asks ? clausesOf(sentence).slice(0, -1) : clausesOf(sentence);
  const facts: Fact[] = [];
  // An introduction can open a question: "Hi Omar, it's Fatima from Zarqa CRM, is now still a good time?"
  const employer = employerFact(sentence.text);
  if (employer !== null) facts.push({ content: employer, category: 'work', kind: 'employer', order, source: employer });
  for (const [index, said] of clauses.entries()) {
    const clause = withoutPlaceHere(said);
    const resolved = resolvePointer(clause, clauses[index - 1]);
    // "I'm allergic to that" with nothing to say what "that" is would store "User is allergic".
    // What follows a comma is cut from the fact, so a plan word there ("…, starts next week") leaves it be.
    if (NOT_A_FACT.test(trimFact(clause)) || (resolved === clause && POINTER.test(clause))) continue;
    if (dayAheadBefore(sentence.text, clause)) continue;
    // A clause with its dropped "I" put back ("Still hate herring") is not in the sentence: parsed anew.
    const found = tokensOfClause(sentence, clause);
    const fact = factFromClause(resolved, found.length > 0 ? found : parseTokens(clause));
    if (fact !== null) facts.push(withNamesCounted({ ...fact, order }, sentence.text));
  }
  const relative = relativeFact(clauses);
  if (relative !== null && facts.length === 0)
    facts.push({ content: rewrite(relative), category: 'core', kind: 'relative', order, source: relative });
  const place = facts.length === 0 ? placeReply(sentence.text) : null;
  if (place !== null) facts.push({ content: place, category: 'core', kind: 'pattern', order, source: place });
  const role = facts.length === 0 ? roleFact(sentence.text, sentence.tokens, repliesToQuestion) : null;
  if (role !== null) facts.push({ content: role, category: 'work', kind: 'profession', order, source: role });
  const span = facts.length === 0 && !readingRecord ? clauses.map(lifeSpan).find((shape) => shape !== null) : undefined;
  if (span?.content !== undefined)
    facts.push({ content: span.content, category: span.category, kind: 'span', order, source: span.content });
  const named = namedRelative(sentence.tokens);
  // "My husband, Jun, he's an electrician, and we have two kids": the name stays beside the other facts;
  // "For high places I send my nephew Diego" says whom the wearer has, not a habit of sending him.
  const errand = facts.findIndex((fact) => fact.kind === 'shape' && ERRAND_WITH_KIN.test(fact.content));
  if (named?.content !== undefined && errand !== -1) facts.splice(errand, 1);
  if (named?.content !== undefined && !namesHeld(named.content, facts))
    facts.push({ content: named.content, category: named.category, kind: 'named', order, source: sentence.text });
  if (facts.length === 0 && !asks) {
    const lexical = lexicalFact(sentence, clauses, repliesToQuestion);
    if (lexical !== null) facts.push({ ...lexical, kind: 'lexical', order });
  }
  return facts;
}

function withDetail(content: string, full: string): string {
  // "Still allergic, yeah.": a closing yes adds nothing.
  const detail = full.replace(/[,\s]+(?:yeah|yes|yep|yup|sure|right)$/i, '');
  // "Still in Dakar?" "Yes, still in Dakar.": a reply that repeats the question adds nothing.
  const said = new Set(content.toLowerCase().split(/\W+/));
  if (
    detail
      .toLowerCase()
      .split(/\W+/)
      .every((word) => word === '' || said.has(word))
  )
    return content;
  const named = parseTokens(detail)[0]?.pos === 'PROPN';
  const phrase = named ? detail : detail.charAt(0).toLowerCase() + detail.slice(1);
  // "allergic to any medication?" "Yes, penicillin.": the answer names what "any" asked for.
  if (/\bany \w+$/.test(content) && !detail.includes(' ')) return content.replace(/\bany \w+$/, phrase);
  return `${content}, ${phrase}`
    .split(' ')
    .slice(0, MAX_WORDS)
    .join(' ')
    .replace(/[,;:]+$/, '');
}

/** A confirmed question or a statement about the wearer, read as the wearer's own clause. */
function secondHandFact(statement: Statement, order: number, kind: FactKind): Fact | null {
  if (NOT_A_FACT.test(statement.text)) return null;
  const detailed = (fact: Fact): Fact =>
    statement.detail === undefined || !complete(fact.content)
      ? fact
      : { ...fact, content: withDetail(fact.content, statement.detail) };
  const fact = factFromClause(statement.text, parseTokens(statement.text));
  if (fact !== null) return detailed({ ...fact, kind, order });
  // "Still training for the half marathon?" "Yep.": an ongoing pursuit the wearer confirms;
  // "your cholesterol is high": a finding someone states about the wearer;
  // "You got married?" "Yes, last year.": a question the reply confirms and adds to.
  if (!/\bstill\b|^my\b/i.test(statement.text) && statement.detail === undefined) return null;
  return detailed({ content: rewrite(statement.text), category: 'core', kind, order, source: statement.text });
}

/** Every fact the conversation offers about the wearer, before any is chosen. */
export function memoryCandidates(analysis: Analysis, userName: string): Fact[] {
  const order = new Map(analysis.sentences.map((sentence, index) => [sentence, index]));
  const own = analysis.sentences.flatMap((sentence, index) => {
    if (!sentence.isUser) return [];
    const before = analysis.sentences[index - 1];
    // "What do you do for fun?" "Pickleball.": a short reply names the asked-about thing.
    const replies =
      before !== undefined && !before.isUser && before.text.trim().endsWith('?') && /\byou(?:r)?\b/i.test(before.text);
    const facts = factsOf(sentence, index, replies, readsRecord(analysis, index));
    const detail = elaboration(analysis, index);
    const last = facts.at(-1);
    // "I have a dog. A beagle, Pepper.": the phrase after a fact says which.
    const open =
      last !== undefined &&
      /^User (?:is|has|was)\b/.test(last.content) &&
      last.content.split(' ').length <= 7 &&
      complete(last.content);
    if (last !== undefined && open && detail !== null) last.content = withDetail(last.content, detail);
    return facts;
  });
  const heardFrom = (statements: Statement[], kind: FactKind): Fact[] =>
    statements.flatMap((statement) => {
      const fact = secondHandFact(statement, order.get(statement.sentence) ?? 0, kind);
      return fact === null ? [] : [fact];
    });
  // Facts found whole elsewhere: a content, what it is about, and the sentence that said it.
  const found = (
    items: ReadonlyArray<
      Pick<Fact, 'content' | 'about'> & { category?: MemoryCategory; sentence: Sentence; source?: string }
    >,
    kind: FactKind,
  ): Fact[] =>
    items.map((item) => ({
      content: item.content,
      category: item.category ?? 'core',
      kind,
      order: order.get(item.sentence) ?? 0,
      source: item.source ?? item.content,
      about: item.about,
    }));
  // Said to the wearer in the shape of their own words: read as if they had said it.
  const spans = spansSaidToWearer(analysis).flatMap(({ text, sentence }) =>
    factsOf({ ...sentence, text, tokens: parseTokens(text), isUser: true }, order.get(sentence) ?? 0).map(
      (fact): Fact => ({ ...fact, kind: 'told' }),
    ),
  );
  // "User's cat is named Miso" beside "User's household adopted a cat called Miso": the name is held already.
  const people = [...peopleOfWearer(analysis, userName), ...householdFacts(analysis)];
  const places = kinPlaces(analysis);
  const others = [
    ...own,
    ...spans,
    ...heardFrom(confirmedQuestions(analysis), 'confirmed'),
    ...heardFrom(saidOfWearer(analysis), 'told'),
    ...found(clinicFacts(analysis), 'told'),
    ...found(relationsNamedInDialogue(analysis), 'dialogue'),
    ...found(answeredFacts(analysis), 'answered'),
    ...found(
      people.filter((person) => !namesHeld(person.content, own)),
      'people',
    ),
    ...found(fragmentStates(analysis), 'shape'),
    ...found(askedAfter(analysis), 'asked'),
    ...found(places.kin, 'relative'),
    ...found(places.own, 'home'),
    ...found(rolesOfWearer(analysis), 'profession'),
  ];
  // Each with what it is about, so that a kept fact saying it already keeps it out (memories.ts).
  return [...others, ...found(bodyFacts(analysis), 'body'), ...found(pastimesKept(analysis), 'lexical')];
}
