/**
 * Words of a question that say what it is about: question words, pronouns, auxiliaries and the
 * like are dropped, so "what did I decide about pricing?" searches for "decide" and "pricing".
 */
const FUNCTION_WORDS = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both
  but by can could did do does doing done during each else ever few for from had has have having he her here
  hers herself him himself his how i if in into is it its itself just know let me mention mentioned more most
  my myself no nor not now of off on once only or other our ours ourselves out over own said same say says
  she should so some talk talked talking tell than that the their theirs them themselves then there these
  they this those through to too under until up us very was we were what when where which while who whom
  why will with would you your yours yourself yourselves anything something thing things get got
  conversation conversations ago happen happened happening discuss discussed remember recall`.split(/\s+/),
);

/** The content words among a question's terms (terms come from the store's own tokenizer). */
export function contentWords(terms: readonly string[]): string[] {
  return terms.filter((t) => !FUNCTION_WORDS.has(t) && !/^\d{1,2}$/.test(t));
}

/** A crude English stem, enough to match "decided" with "decide" and "prices" with "price". */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 4) return w;
  for (const suffix of ['ing', 'ed', 'es', 's', 'ly']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 4) return w.slice(0, -suffix.length).replace(/e$/, '');
  }
  return w.replace(/e$/, '');
}
