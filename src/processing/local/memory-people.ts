import type { MemoryCategory } from '../../domain/categories.js';
import type { Analysis, Sentence } from './analysis.js';
import { isName } from './memory-relatives.js';
import { KIN } from './memory-shapes.js';
import { capitalisedInside, namesCalledOut } from './participants.js';
import { settingOf } from './setting.js';
import { escapeRegExp, isPlaceholderSpeaker } from './text.js';

/**
 * The people and animals of the wearer's life, named in passing: the dog the vet greets ("So this is
 * Biscuit?"), the child a teacher calls about ("Is this Bao's mom?"), the partner a friend asks after
 * ("How's Julia?"), the toddler whose age is given ("Tolu is three"). Nobody says "my", so the
 * relation is read from how the name is used: introduced to a visitor, asked after, someone's parent,
 * given an age; and its kind from the setting (an animal word or a vet, a school or a birthday).
 */

export interface PersonFact {
  content: string;
  category: MemoryCategory;
  sentence: Sentence;
}

type Role = 'pet' | 'child' | 'person';

const NUMBER_WORDS = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen';
export const SPECIES =
  /\b(dog|puppy|pup|cat|kitten|kitty|rabbit|bunny|hamster|parrot|budgie|tortoise|horse|pony|guinea pig|ferret|lizard|snake|spaniel|terrier|retriever|labrador|collie|poodle|beagle|husky|dachshund|greyhound|shepherd|bulldog|pug|corgi|chihuahua|schnauzer|rottweiler|whippet|lurcher|dalmatian|cockapoo|labradoodle|staffie|mutt|tabby|moggy|siamese|ragdoll|tomcat)s?\b/i;
export const VET =
  /\b(?:vet|vets|veterinary|vaccines?|vaccinations?|neuter(?:ed)?|spay(?:ed)?|flea|worming|litter|leash|kibble|dog food|cat food|paw|collar|kennel)\b/i;
const CHILDHOOD =
  /\b(?:kid|school|grade|class|nursery|daycare|kindergarten|preschool|homework|teacher|birthday|nap|bath ?time|bedtime|diaper|nappy|toddler|baby|pediatrician|paediatrician|babysitter|playdate|weeks old|months old)\b/i;
export const HERD = new Map<string, string>([
  ['puppy', 'dog'],
  ['pup', 'dog'],
  ['kitten', 'cat'],
  ['kitty', 'cat'],
  ['bunny', 'rabbit'],
  // A breed is a dog: "Bella, a springer spaniel" is the wearer's dog.
  ...'spaniel terrier retriever labrador collie poodle beagle husky dachshund greyhound shepherd bulldog pug corgi chihuahua schnauzer rottweiler whippet lurcher dalmatian cockapoo labradoodle staffie mutt'
    .split(' ')
    .map((breed): [string, string] => [breed, 'dog']),
  // So is a cat's coat or breed: "Juniper, our tabby".
  ...'tabby moggy siamese ragdoll tomcat'.split(' ').map((breed): [string, string] => [breed, 'cat']),
]);

// Words of address and kinship that come capitalised: "Mama", "Nurse", "Doc".
const TITLES =
  /^(?:good|mãe|mae|pai|mama|mamma|papa|mum|mom|mommy|mummy|dad|daddy|nurse|doctor|doc|grandma|granny|gran|nana|nan|grandpa|auntie|aunty|uncle|sir|madam|miss|buddy|mate|honey|babe|darling|sweetie|love|boss|team|guys|everyone|thursdays|mondays|tuesdays|wednesdays|fridays|saturdays|sundays|weekends)$/i;

/** "Lerato, she's eight, and Kagiso, he's five", "Adaeze, she's six months": an age put beside a name. */
function apposedAge(text: string, name: string): boolean {
  return new RegExp(
    `\\b${escapeRegExp(name)}, (?:she|he)(?:'s| is) (?:(?:only|just|almost|nearly) )?(?:${NUMBER_WORDS}|\\d{1,2})(?: (?:years? old|months?(?: old)?))?\\s*(?:[,.!?]|$)`,
    'i',
  ).test(text);
}

const ANIMAL_CARE =
  /\b(?:vets?|dog food|cat food|kibble|litter|leash|kennel|flea|worming|spay(?:ed)?|neuter(?:ed)?|booster|walkies)\b/i;
const STAGES = 'grade|year|nursery|kindergarten|preschool|primary|class';
const PET_TALK = /\b(?:good (?:boy|girl)|who's a good|hey buddy)\b/i;

/** How the name is used in one sentence: the signals that tie it to the wearer, strongest first. */
function signalOf(
  sentence: Sentence,
  name: string,
): 'introduced' | 'announced' | 'parent' | 'age' | 'asked' | 'pet' | 'cared' | null {
  const n = escapeRegExp(name);
  const text = sentence.text;
  const introduced = new RegExp(
    `\\b(?:this is|this must be|here's|here is|meet|and this is) ${n}(?=\\s*(?:[.!?]|$| and\\b))`,
    'i',
  );
  // "His name is Tango", "She's called Pip": a name given to someone the wearer has.
  if (
    new RegExp(
      `\\b(?:(?:his|her|its) name(?:'s| is)|(?:he's|she's|it's|he is|she is) (?:called|named)) ${n}\\b`,
      'i',
    ).test(text)
  )
    return 'introduced';
  // "Hi, this is Ifeoma from the bank": a caller naming themselves, not someone shown to a visitor ("Hi, so
  // this must be Biscuit" shows one).
  const greeted = /^(?:hi|hello|hey|good (?:morning|afternoon|evening))\b/i.test(text.trim());
  if (introduced.test(text) && (!greeted || new RegExp(`\\bmust be ${n}\\b`, 'i').test(text))) return 'introduced';
  // "So, Tamta.", "So, Mateo.": a name announced on its own is who a vet's or a teacher's visit is about.
  if (!sentence.isUser && new RegExp(`^so,? ${n}\\.?$`, 'i').test(text.trim())) return 'announced';
  // "Good boy, Bram", "Churro, sit", "Tango's ears": spoken to or of as an animal.
  if (PET_TALK.test(text) && new RegExp(`\\b${n}\\b`).test(text)) return 'pet';
  if (
    new RegExp(
      `\\b${n}, (?:sit|stay|come here|heel|down|off|leave it|drop it)\\b|\\b${n}'s (?:paws?|fur|coat|tail|claws|litter|kibble|lead|leash)\\b`,
      'i',
    ).test(text)
  )
    return 'pet';
  // "we're out of dog food, Biscuit's been eating it", "squeeze Pepper in at the vet": cared for as an
  // animal. Not a name called out ("Liam, the dog food"), a vet's own ("Dr. Lim"), a place ("in Bangi")
  // or a business ("Brunswick Vet").
  if (
    ANIMAL_CARE.test(text) &&
    !new RegExp(`^${n}\\s*,|\\b(?:dr\\.?|doctor|mr|mrs|ms|in|at|to|near|from) ${n}\\b`, 'i').test(text.trim()) &&
    !new RegExp(`\\b${n}(?:[ -]\\p{Lu}|\\s*[.!?]?$)`, 'u').test(text.trim())
  )
    return 'cared';
  if (
    !sentence.isUser &&
    new RegExp(`\\b${n}(?: \\p{Lu}[\\p{L}'-]+)?'s (?:mom|mum|mother|dad|father|parents?)\\b`, 'u').test(text)
  )
    return 'parent';
  if (
    new RegExp(
      `\\b${n}(?:'s| is| turns| turned| will be) (?:(?:only|just|almost|nearly) )?(?:${NUMBER_WORDS}|\\d{1,2})(?: (?:years? old|months?(?: old)?))?\\b(?! (?:o'clock|pm|am|thirty|fifteen|forty))`,
      'i',
    ).test(text) ||
    new RegExp(`\\b${n}'s (?:first|second|third|\\w+th) birthday\\b`, 'i').test(text) ||
    // "Bea is starting grade one in August": a child's stage given like an age.
    new RegExp(`\\b${n}(?:'s| is) (?:starting|going into|moving up to) (?:${STAGES}) \\w+`, 'i').test(text) ||
    apposedAge(text, name)
  )
    return 'age';
  if (
    !sentence.isUser &&
    /\?\s*$/.test(text) &&
    new RegExp(
      `^(?:and |so )?(?:how's|how is|how are|how was|and|what about|how about) ${n}(?: doing| getting on| these days)?\\?`,
      'i',
    ).test(text.trim())
  )
    return 'asked';
  return null;
}

// "we just adopted a cat called Miso": the animal said nearby already has a name of its own.
const NAMED_AFTER = /^\s+(?:called|named)\s+\p{Lu}/u;

function speciesNear(analysis: Analysis, index: number): string | null {
  for (let offset = 0; offset <= 3; offset++) {
    for (const at of offset === 0 ? [index] : [index - offset, index + offset]) {
      const text = analysis.sentences[at]?.text ?? '';
      const match = SPECIES.exec(text);
      if (match !== null && !NAMED_AFTER.test(text.slice(match.index + match[0].length))) {
        const noun = match[1].toLowerCase();
        return HERD.get(noun) ?? noun;
      }
    }
  }
  return null;
}

function roleOf(
  analysis: Analysis,
  index: number,
  signal: string,
  animals: boolean,
): { role: Role; species: string | null } {
  const species = speciesNear(analysis, index);
  if (signal === 'parent') return { role: 'child', species: null };
  if (
    animals &&
    (signal === 'introduced' || signal === 'announced' || signal === 'pet' || signal === 'cared' || species !== null)
  )
    return { role: 'pet', species };
  const around = [index - 1, index, index + 1].map((at) => analysis.sentences[at]?.text ?? '').join(' ');
  if (signal === 'age' || CHILDHOOD.test(around)) return { role: 'child', species: null };
  return { role: 'person', species: null };
}

/** A child's words in the sentence and the four after it ("So, Mateo. First, he's a lovely kid."). */
function childTalkAhead(analysis: Analysis, index: number): boolean {
  return analysis.sentences.slice(index, index + 5).some((sentence) => CHILDHOOD.test(sentence.text));
}

function contentOf(name: string, role: Role, species: string | null): string {
  if (role === 'pet') return `User's ${species ?? 'pet'} is named ${name}`;
  if (role === 'child') return `User's child is named ${name}`;
  return `${name} is someone close to User`;
}

/** Whether the conversation uses the name as a place: "in Denmark", "moved to Munich", "from Osaka". */
function namesPlace(analysis: Analysis, name: string): boolean {
  const place = new RegExp(`\\b(?:in|to|from|near|around|across|visiting|visit) ${escapeRegExp(name)}\\b`);
  return analysis.sentences.some((sentence) => place.test(sentence.text));
}

/** Names that belong to the conversation itself: its speakers and the wearer. */
function participantNames(analysis: Analysis, userName: string): Set<string> {
  const names = new Set(userName.toLowerCase().split(/\s+/));
  for (const turn of analysis.turns) {
    if (isPlaceholderSpeaker(turn.speaker)) continue;
    for (const part of turn.speaker.toLowerCase().split(/\s+/)) names.add(part);
  }
  return names;
}

/** The wearer's people and pets the conversation names without a "my". */
export function peopleOfWearer(analysis: Analysis, userName: string): PersonFact[] {
  if (analysis.attribution === 'absent') return [];
  const speakers = participantNames(analysis, userName);
  const animals = analysis.sentences.some((sentence) => VET.test(sentence.text) || SPECIES.test(sentence.text));
  const inside = capitalisedInside(analysis);
  const facts: PersonFact[] = [];
  const seen = new Set<string>();
  analysis.sentences.forEach((sentence, index) => {
    // A name said again in the same sentence gives the same signal: read once ("Step one: Step one: …"
    // would otherwise scan the sentence once a mention).
    const read = new Set<string>();
    sentence.tokens.forEach((token, at) => {
      // A surname follows its first name: "Diego Ramírez's mom" names Diego.
      if (!isName(token) || isName(sentence.tokens[at - 1]) || TITLES.test(token.value)) return;
      if (speakers.has(token.normal) || seen.has(token.value) || read.has(token.value)) return;
      // "Our son Mateo is four": a name said with its relation is that relative's (memory-relatives.ts).
      if (KIN.test(sentence.tokens[at - 1]?.normal ?? '')) return;
      read.add(token.value);
      const signal = signalOf(sentence, token.value);
      // A capital that opens a sentence is a name only when used as one elsewhere, given an age by
      // apposition, or given an age among a child's words ("Zosia's four now, she started preschool").
      const agedChild = signal === 'age' && CHILDHOOD.test(sentence.text);
      const spokenTo = signal === 'pet' && animals;
      if (
        signal === null ||
        (!inside.has(token.value) && !apposedAge(sentence.text, token.value) && !agedChild && !spokenTo)
      )
        return;
      // The one asked about answers in the next turn: "And Marta?" "Here, hi!" is a speaker, not a relation.
      const next = analysis.sentences[index + 1];
      if (signal === 'asked' && next !== undefined && !next.isUser) return;
      seen.add(token.value);
      // Announced in a meeting, a name is whose turn it is; at a school, the child the meeting is about.
      const announced = signal === 'announced' && !animals;
      if (announced && !childTalkAhead(analysis, index)) return;
      const { role, species }: { role: Role; species: string | null } = announced
        ? { role: 'child', species: null }
        : roleOf(analysis, index, signal, animals);
      // "How's Denmark?" asks after a place, "my place in Oost" names one: a name said after "in" or
      // "to" anywhere is a place.
      if (role !== 'pet' && namesPlace(analysis, token.value)) return;
      facts.push({ content: contentOf(token.value, role, species), category: 'core', sentence });
    });
  });
  return [...facts, ...recurringNames(analysis, seen, speakers, animals)];
}

const PERSONAL_SETTINGS = new Set(['family', 'parenting', 'social', 'romantic', 'personal']);

/**
 * A name the wearer keeps coming back to at home or among friends ("Tiago's in the bath… Tiago has
 * school holidays the whole week") is one of their people, though nothing says how. Not at work, where
 * the names said twice are colleagues, and never a speaker, someone addressed, or a place.
 */
function recurringNames(analysis: Analysis, seen: Set<string>, speakers: Set<string>, animals: boolean): PersonFact[] {
  const setting = analysis.dialogue ? settingOf(analysis) : undefined;
  // Without a clear personal setting, a name must also be used as a person's ("Amara's dance recital",
  // "tell Jalen"), and the talk must not be set at work, school or an office.
  const strict = setting === undefined;
  if (setting !== undefined && !PERSONAL_SETTINGS.has(setting)) return [];
  const inside = capitalisedInside(analysis);
  const said = new Map<string, number[]>();
  analysis.sentences.forEach((sentence, index) => {
    if (!sentence.isUser) return;
    for (const [at, token] of sentence.tokens.entries()) {
      if (!isName(token) || isName(sentence.tokens[at - 1]) || isName(sentence.tokens[at + 1])) continue;
      if (TITLES.test(token.value) || speakers.has(token.normal) || seen.has(token.value) || !inside.has(token.value))
        continue;
      // "Hi Maria,", "Mabli, come here": a name called out is someone present.
      if (
        new RegExp(`^(?:hi |hey |hello |thanks |bye )?${escapeRegExp(token.value)}\\s*[,!?]`, 'i').test(sentence.text)
      )
        continue;
      const at_ = said.get(token.value) ?? [];
      if (!at_.includes(index)) at_.push(index);
      said.set(token.value, at_);
    }
  });
  const addressed = namesCalledOut(analysis);
  const facts: PersonFact[] = [];
  for (const [name, indices] of said) {
    if (indices.length < 2 || addressed.has(name) || namesPlace(analysis, name)) continue;
    if (strict && !indices.some((index) => usedAsPerson(analysis.sentences[index].text, name))) continue;
    const { role, species } = roleOf(analysis, indices[0], 'recurring', animals);
    facts.push({ content: contentOf(name, role, species), category: 'core', sentence: analysis.sentences[indices[0]] });
  }
  return facts;
}

/** "Amara's dance recital", "Jalen has the dentist", "tell Ivy", "for Ivy": a name used as a person's. */
function usedAsPerson(text: string, name: string): boolean {
  const n = escapeRegExp(name);
  return new RegExp(
    `\\b${n}(?:'s (?!been\\b)\\p{Ll}+| (?:has|wants|said|says|asked|needs|loves|likes|hates|keeps|starts|gets|and I)\\b)|\\b(?:for|with|tell|ask|call|text|pick up|drop|take|bring|promised) ${n}\\b`,
    'u',
  ).test(text);
}

/** Whether every name in a person's fact is already in one of the other facts. */
export function namesHeld(content: string, facts: ReadonlyArray<{ content: string }>): boolean {
  const names = content.match(/\p{Lu}[\p{L}'-]+/gu)?.filter((word) => !/^User\b/.test(word)) ?? [];
  return names.length > 0 && facts.some((fact) => names.every((name) => fact.content.includes(name)));
}
