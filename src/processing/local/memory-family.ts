import type { Analysis, Sentence } from './analysis.js';
import { HERD, SPECIES } from './memory-people.js';
import { POINTING } from './memory-phrasings.js';
import { addressedAs } from './setting.js';
import { isPlaceholderSpeaker, isRoleWord } from './text.js';

/**
 * The wearer's household as a conversation at home shows it: a speaker who calls the wearer "Daddy"
 * is their child, and a name the wearer says is a hamster is their hamster's.
 */

export interface HouseholdFact {
  content: string;
  sentence: Sentence;
}

const PARENT_WORD = '(?:daddy|dad|papa|mummy|mommy|mum|mom|mama|mami|papi)';
const CALLS_PARENT = addressedAs(PARENT_WORD);
const PARENT_LABEL = new RegExp(`^${PARENT_WORD}$`, 'i');
const NAME_LABEL = /^\p{Lu}\p{Ll}+$/u;
const SAID_A_PET = new RegExp(
  `\\b${POINTING}(\\p{Lu}\\p{Ll}+) is (?:a|an|our|my) (?:little |big |old |young |baby )?${SPECIES.source}`,
  // Case matters: "Peanut" is a name, "it" is not.
  'u',
);

// "We just adopted a cat called Miso", "our dog, named Rufus": the wearer's animal, named as it is said.
const PET_CALLED = new RegExp(
  `\\b(?:a|an|our|my) (?:little |new |rescue |old |young |baby )?${SPECIES.source},? (?:called|named) (\\p{Lu}\\p{Ll}+)`,
  'u',
);

// "Bella, a springer spaniel. She's mental.": a name opening the wearer's line, with what animal it is.
const PET_APPOSED = new RegExp(
  `^${POINTING}(\\p{Lu}\\p{Ll}+), (?:a|an|my|our) (?:little |big |old |young |rescue )?(?:[\\p{L}-]+ )?${SPECIES.source}`,
  'u',
);

export function householdFacts(analysis: Analysis): HouseholdFact[] {
  if (analysis.attribution === 'absent') return [];
  const facts: HouseholdFact[] = [];
  const seen = new Set<string>();
  for (const sentence of analysis.sentences) {
    const speaker = sentence.speaker;
    const child =
      !sentence.isUser &&
      NAME_LABEL.test(speaker) &&
      !isPlaceholderSpeaker(speaker) &&
      !isRoleWord(speaker) &&
      !PARENT_LABEL.test(speaker) &&
      CALLS_PARENT.test(sentence.text);
    if (child && !seen.has(speaker)) {
      seen.add(speaker);
      facts.push({ content: `User's child is named ${speaker}`, sentence });
    }
    const said = sentence.isUser ? SAID_A_PET.exec(sentence.text) : null;
    const called = sentence.isUser && said === null ? PET_CALLED.exec(sentence.text) : null;
    const apposed = sentence.isUser && said === null && called === null ? PET_APPOSED.exec(sentence.text.trim()) : null;
    // SAID_A_PET and PET_APPOSED hold the name first ("Peanut is our hamster"), PET_CALLED the species first.
    const named = said ?? apposed;
    const pet = named !== null ? [named[1], named[2]] : called !== null ? [called[2], called[1]] : null;
    if (pet !== null && !seen.has(pet[0])) {
      seen.add(pet[0]);
      const species = pet[1].toLowerCase().replace(/s$/, '');
      facts.push({ content: `User's ${HERD.get(species) ?? species} is named ${pet[0]}`, sentence });
    }
  }
  return facts;
}
