import { parseTokens } from '../src/processing/local/nlp.js';

/** Surface forms of a text's words: lowercase, lemma, and a crude suffix-stripped stem. */
function formsOf(text: string): Set<string> {
  const forms = new Set<string>();
  for (const token of parseTokens(text)) {
    const normal = token.normal.toLowerCase();
    forms.add(normal);
    forms.add(token.lemma.toLowerCase());
    forms.add(stem(normal));
  }
  return forms;
}

function stem(word: string): string {
  return word.replace(/(?:ing|ers|er|ed|es|s)$/, '');
}

/** A label keyword is found when the text contains it, or contains one of its lemmas or stems (all its words). */
export function containsKeyword(text: string, keyword: string): boolean {
  const lower = text.toLowerCase();
  const wanted = keyword.toLowerCase();
  if (lower.includes(wanted)) return true;
  const forms = formsOf(text);
  return wanted
    .split(/\s+/)
    .every((word) => forms.has(word) || [...formsOf(word)].some((form) => forms.has(form) || forms.has(stem(form))));
}

export function matchesAll(text: string, keywords: string[]): boolean {
  return keywords.every((keyword) => containsKeyword(text, keyword));
}

/** Greedy one-to-one pairing of labels with extracted texts; returns, per label, the matched index or -1. */
export function pairUp(labels: Array<{ keywords: string[] }>, extracted: string[]): number[] {
  const used = new Set<number>();
  return labels.map((label) => {
    const index = extracted.findIndex((text, i) => !used.has(i) && matchesAll(text, label.keywords));
    if (index !== -1) used.add(index);
    return index;
  });
}
