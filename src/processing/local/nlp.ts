import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type winkNLP from 'wink-nlp';
import type { ItsFunction, Model, WinkMethods } from 'wink-nlp';
import { nounKind } from './noun-kinds.js';

const require = createRequire(import.meta.url);

/** One wink token, flattened to the fields the engine reads. */
export interface Token {
  value: string;
  /** lowercase normal form ("'ll" → "will") */
  normal: string;
  lemma: string;
  /** universal POS tag: NOUN, VERB, PROPN, … */
  pos: string;
  /** wink token type: word, number, punctuation, emoji, time, … */
  kind: string;
  /** the word is in wink's English lexicon; "escucho", "Kyoto", "Callum" are not */
  known?: boolean;
}

export interface ParsedSentence {
  text: string;
  tokens: Token[];
}

let nlpInstance: WinkMethods | undefined;

/** What wink's document wrapper (src/dd-wrapper.js) gives its tokenizer, as far as the engine wraps it. */
interface DocData {
  cache: { lookup(text: string): number[] | null; intrinsicSize(): number };
}
interface TokenizerView {
  _addTokenIfInCache(text: string, precedingSpaces: number, nbsp: string | null): number;
  isLexeme(text: string): number[] | null;
}

/**
 * wink-nlp with a tokenizer that does not learn. wink adds every word it has not met to its lexicon,
 * and its tokenizer keeps any text found there whole: once "my cousin's." has been read (the word cut
 * from its full stop and added as one unknown word), every later "my cousin's wedding" gives "cousin's"
 * instead of "cousin" + "'s", and the POS tags, titles and events after it change. A transcript's result
 * then depended on what the process had read before it. Here the tokenizer's two lookups answer only
 * from the model's own lexicon, so every text is split as a fresh process splits it; unknown words still
 * keep one id each. wink is loaded privately for this, so anyone else requiring wink-nlp gets the
 * package as published.
 */
function historyFreeWink(): typeof winkNLP {
  const main = require.resolve('wink-nlp');
  const wrapperPath = join(dirname(main), 'dd-wrapper.js');
  const saved = [main, wrapperPath].map((path) => [path, require.cache[path]] as const);
  for (const [path] of saved) delete require.cache[path];
  try {
    const wrapDocData = require(wrapperPath) as (data: DocData) => TokenizerView;
    const loaded = require.cache[wrapperPath];
    if (loaded === undefined) throw new Error(`wink-nlp's document wrapper did not load from ${wrapperPath}`);
    loaded.exports = (data: DocData): TokenizerView => {
      const view = wrapDocData(data);
      const intrinsic = data.cache.intrinsicSize();
      lexiconSize = intrinsic;
      const learned = (text: string): boolean => {
        const found = data.cache.lookup(text);
        return found !== null && found.length === 1 && found[0] >= intrinsic;
      };
      const addIfKnown = view._addTokenIfInCache;
      const isLexeme = view.isLexeme;
      // 0 is wink's "not added"; null its "not a lexeme".
      view._addTokenIfInCache = (text, precedingSpaces, nbsp) =>
        learned(text) ? 0 : addIfKnown(text, precedingSpaces, nbsp);
      view.isLexeme = (text) => (learned(text) ? null : isLexeme(text));
      return view;
    };
    return require(main) as typeof winkNLP;
  } finally {
    for (const [path, module] of saved) {
      if (module === undefined) delete require.cache[path];
      else require.cache[path] = module;
    }
  }
}

/**
 * The wink pipeline, loaded once per process (the model load takes ~100 ms). Only sentence splitting
 * and part-of-speech tagging run: entities, negation and sentiment are unused and cost ~6× the time.
 */
export function loadNlp(): WinkMethods {
  if (nlpInstance === undefined) {
    // Required here rather than imported: a process that processes nothing never loads them (docs/deployment.md).
    nlpInstance = historyFreeWink()(require('wink-eng-lite-web-model') as Model, ['sbd', 'pos']);
    nlpInstance.readDoc('');
    if (lexiconSize === Number.POSITIVE_INFINITY) throw new Error("wink-nlp's tokenizer was not wrapped");
  }
  return nlpInstance;
}

/** Ids below this are words of wink's own lexicon; unknown words get ids past its end. */
let lexiconSize = Number.POSITIVE_INFINITY;

interface TokenColumns {
  values: string[];
  normals: string[];
  lemmas: string[];
  tags: string[];
  kinds: string[];
  spaces: string[];
  ids: number[];
}

// Letters beyond Latin-1 that wink's tokenizer splits words at ("Gdańsk" → "Gda ń sk"), with the
// ASCII letter read in their place; the spoken text is restored in the tokens afterwards.
const BEYOND_LATIN1 = /[\u0100-\u024f\u1e00-\u1eff]/g;
const NO_DECOMPOSITION: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŋ: 'N',
  ŋ: 'n',
  Œ: 'O',
  œ: 'o',
};

function asciiLetter(letter: string): string {
  const base = letter.normalize('NFD').charAt(0);
  return /^[A-Za-z]$/.test(base) ? base : (NO_DECOMPOSITION[letter] ?? 'x');
}

/** Token values as spoken: each read from the original text at the place it was found in the folded one. */
function restoreValues(values: string[], folded: string, original: string): string[] {
  let cursor = 0;
  return values.map((value) => {
    const at = folded.indexOf(value, cursor);
    if (at === -1) return value;
    cursor = at + value.length;
    return original.slice(at, cursor);
  });
}

function columnsOf(nlp: WinkMethods, original: string): { columns: TokenColumns; spans: number[][] } {
  const its = nlp.its;
  const text = original.replace(BEYOND_LATIN1, asciiLetter);
  const doc = nlp.readDoc(text);
  const tokens = doc.tokens();
  const columns = {
    values: tokens.out(its.value) as string[],
    normals: tokens.out(its.normal) as string[],
    // wink's typings declare lemma with an extra addons parameter that out() supplies itself.
    lemmas: tokens.out(its.lemma as unknown as ItsFunction<string>) as string[],
    tags: tokens.out(its.pos) as string[],
    kinds: tokens.out(its.type) as string[],
    spaces: tokens.out(its.precedingSpaces) as string[],
    ids: tokens.out(its.uniqueId) as number[],
  };
  if (text !== original) {
    const restored = restoreValues(columns.values, text, original);
    // A name's normal and lemma are its lowercase spoken form; "'ll" keeps "will".
    columns.normals = columns.normals.map((normal, index) =>
      normal === columns.values[index].toLowerCase() ? restored[index].toLowerCase() : normal,
    );
    columns.lemmas = columns.lemmas.map((lemma, index) =>
      lemma === columns.values[index].toLowerCase() ? restored[index].toLowerCase() : lemma,
    );
    columns.values = restored;
  }
  return { columns, spans: doc.sentences().out(its.span) as unknown as number[][] };
}

/**
 * "Invitations, I'll print them", "Errands.": wink takes a capitalised plural opening a sentence for a
 * name; when its singular is a common noun WordNet files, it is that noun (its singular, as lemma).
 */
function pluralOpening(value: string, tag: string): string | null {
  if (tag !== 'PROPN' || !/^\p{Lu}\p{Ll}{2,}s$/u.test(value)) return null;
  const singular = value.slice(0, -1).toLowerCase();
  return nounKind(singular) === undefined ? null : singular;
}

const MODALS = new Set(["'ll", 'will', 'would', "'d", 'can', 'could', 'should', 'must', 'shall', 'may', 'might']);

/** "I'll text you the number", "can you email me": wink's noun between a modal and its object is the verb. */
function verbsAfterModals(tokens: Token[]): void {
  for (let index = 1; index < tokens.length - 1; index++) {
    const token = tokens[index];
    if (token.pos !== 'NOUN' || !MODALS.has(tokens[index - 1].normal)) continue;
    const next = tokens[index + 1];
    if (next.pos === 'PRON' || next.pos === 'DET') token.pos = 'VERB';
  }
}

// "to book club on the 12th": "book" before one of these is the first half of a noun, not the verb.
const BOOK_COMPOUNDS = new Set(['club', 'group', 'launch', 'fair', 'signing', 'swap']);

function bookCompounds(tokens: Token[]): void {
  for (let index = 0; index < tokens.length - 1; index++) {
    const token = tokens[index];
    if (token.normal === 'book' && token.pos === 'VERB' && BOOK_COMPOUNDS.has(tokens[index + 1].normal)) {
      token.pos = 'NOUN';
      tokens[index + 1].pos = 'NOUN';
    }
  }
}

class SentenceBuilder {
  tokens: Token[] = [];
  text = '';

  add(columns: TokenColumns, index: number): void {
    const value = columns.values[index];
    const normal = columns.normals[index] ?? value.toLowerCase();
    this.text += (this.tokens.length === 0 ? '' : columns.spaces[index]) + value;
    // wink gives no lemma for a sentence-final "cannot" ("…and I cannot. Do that today.").
    const lemma = columns.lemmas[index] ?? normal;
    const plural = this.tokens.length === 0 ? pluralOpening(value, columns.tags[index]) : null;
    this.tokens.push({
      value,
      normal,
      lemma: plural ?? lemma,
      pos: plural === null ? columns.tags[index] : 'NOUN',
      kind: columns.kinds[index],
      known: columns.ids[index] < lexiconSize,
    });
  }

  take(): ParsedSentence | null {
    if (this.tokens.length === 0) return null;
    verbsAfterModals(this.tokens);
    bookCompounds(this.tokens);
    const sentence = { text: this.text, tokens: this.tokens };
    this.tokens = [];
    this.text = '';
    return sentence;
  }
}

// No word runs past 100 characters; a longer run without a space (a pasted hash, "xxxx…") costs wink's
// abbreviation test time quadratic in its length (16 s for 100,000 characters), so it is cut.
const OVERLONG_RUN = /\S{101,}/g;

function shortRun(run: string): string {
  return run.slice(0, 100);
}

// "…four a.m. Book the taxi tonight": wink reads "a.m." as an abbreviation inside a sentence; a capital
// after it, other than a day, a month or a time zone, opens the next one.
const CLOCK_THEN_SENTENCE =
  /\b([ap]\.m\.) (?=(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|[A-Z]{2,4}\b|\p{Lu}\p{Ll}+ time\b))\p{Lu})/gu;

// "I use that card for everything o. I'm a photographer": wink reads a lone lowercase letter before a
// full stop as an initial; the Nigerian "o" (or any lone letter) then a capital ends the sentence.
const LETTER_THEN_SENTENCE = /(?<=\s)(\p{Ll})\. (?=\p{Lu})/gu;

/**
 * Sentences of several texts (speaker turns) in one wink pass, which is far cheaper than one pass
 * per turn: the texts are joined by blank lines, and each line break token starts the next text.
 */
export function parseTurns(texts: string[]): ParsedSentence[][] {
  const result: ParsedSentence[][] = texts.map(() => []);
  const cleaned = texts.map((text) =>
    text
      .replace(/\s+/g, ' ')
      .trim()
      .replace(OVERLONG_RUN, shortRun)
      .replace(CLOCK_THEN_SENTENCE, '$1\n')
      .replace(LETTER_THEN_SENTENCE, '$1.\n'),
  );
  if (cleaned.every((text) => text === '')) return result;
  const { columns, spans } = columnsOf(loadNlp(), cleaned.join('\n\n'));
  const builder = new SentenceBuilder();
  let turn = 0;
  const flush = () => {
    const sentence = builder.take();
    if (sentence !== null) result[turn]?.push(sentence);
  };
  for (const [first, last] of spans) {
    for (let index = first; index <= last; index++) {
      if (columns.kinds[index] !== 'tabCRLF') builder.add(columns, index);
      else {
        flush();
        turn += (columns.values[index].match(/\n\n/g) ?? []).length;
      }
    }
    flush();
  }
  return result;
}

/** Splits one text into sentences of flattened tokens. */
export function parseSentences(text: string): ParsedSentence[] {
  return parseTurns([text])[0] ?? [];
}

/** Tokens of a short text (a description, a memory) without sentence structure. */
export function parseTokens(text: string): Token[] {
  return parseSentences(text).flatMap((sentence) => sentence.tokens);
}
