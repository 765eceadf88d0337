import model from 'wink-eng-lite-web-model';
import winkNLP, { type ItsFunction, type WinkMethods } from 'wink-nlp';

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
}

export interface ParsedSentence {
  text: string;
  tokens: Token[];
}

let nlpInstance: WinkMethods | undefined;

/** The wink pipeline, loaded once per process (the model load takes ~100 ms). */
export function loadNlp(): WinkMethods {
  nlpInstance ??= winkNLP(model);
  return nlpInstance;
}

/** Splits text into sentences of flattened tokens in a single wink pass. */
export function parseSentences(text: string): ParsedSentence[] {
  if (text.trim() === '') return [];
  const nlp = loadNlp();
  const its = nlp.its;
  const doc = nlp.readDoc(text);
  const tokens = doc.tokens();
  const values = tokens.out(its.value) as string[];
  const normals = tokens.out(its.normal) as string[];
  // wink's typings declare lemma with an extra addons parameter that out() supplies itself.
  const lemmas = tokens.out(its.lemma as unknown as ItsFunction<string>) as string[];
  const tags = tokens.out(its.pos) as string[];
  const kinds = tokens.out(its.type) as string[];
  const spaces = tokens.out(its.precedingSpaces) as string[];
  const spans = doc.sentences().out(its.span) as unknown as number[][];
  return spans.map(([first, last]) => {
    const sentenceTokens: Token[] = [];
    let sentenceText = '';
    for (let i = first; i <= last; i++) {
      sentenceTokens.push({ value: values[i], normal: normals[i], lemma: lemmas[i], pos: tags[i], kind: kinds[i] });
      sentenceText += (i === first ? '' : spaces[i]) + values[i];
    }
    return { text: sentenceText, tokens: sentenceTokens };
  });
}

/** Tokens of a short text (a description, a memory) without sentence structure. */
export function parseTokens(text: string): Token[] {
  return parseSentences(text).flatMap((sentence) => sentence.tokens);
}
