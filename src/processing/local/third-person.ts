/** Rewrites a first-person fact ("I've been learning Japanese") as a "User …" statement. */

const MODALS = new Set([
  'can',
  "can't",
  'cannot',
  'will',
  "won't",
  'would',
  'should',
  'could',
  'must',
  'might',
  'may',
  'was',
]);
const ADVERBS = new Set([
  'mostly',
  'usually',
  'always',
  'often',
  'normally',
  'never',
  'rarely',
  'typically',
  'just',
  'really',
  'also',
  'still',
  'actually',
  'recently',
  'finally',
  'sometimes',
  'generally',
  'only',
  'probably',
  'definitely',
  'already',
  'barely',
  'hardly',
  'almost',
  'even',
  'basically',
  'kinda',
  'sorta',
  'once',
  'twice',
  'ever',
  'too',
  'then',
]);
// "-ly" words are adverbs ("I honestly think", "I totally forgot"), except these verbs.
const LY_VERBS = new Set([
  'apply',
  'reply',
  'rely',
  'supply',
  'fly',
  'comply',
  'multiply',
  'imply',
  'ally',
  'rally',
  'tally',
  'bully',
]);

function isAdverb(word: string): boolean {
  const lower = word.toLowerCase();
  return ADVERBS.has(lower) || (/^[a-z]{3,}ly$/.test(lower) && !LY_VERBS.has(lower));
}
/** Two-word hedges before the verb: "I kind of want to learn Japanese". */
const HEDGES = /^(?:kind|sort) of$/i;
const IRREGULAR_PAST = new Set(
  'grew was were went had did made got took began left met ran came became bought sold spent quit lost won wrote taught built found felt kept knew forgot told said saw thought brought caught fought sent lent meant heard paid sat stood understood drove rode wore broke chose spoke woke fell held led fed slept swam sang drank gave ate flew threw drew hid shot hung dug stuck struck'.split(
    ' ',
  ),
);
const IRREGULAR: Record<string, string> = {
  have: 'has',
  do: 'does',
  go: 'goes',
  am: 'is',
  "don't": "doesn't",
  "'m": 'is',
  "'ve": 'has',
};

/** "run" → "runs", "study" → "studies", "watch" → "watches". */
export function thirdPersonVerb(verb: string): string {
  const lower = verb.toLowerCase();
  const irregular = IRREGULAR[lower];
  if (irregular !== undefined) return irregular;
  // A participle ("raining") or an -ly adverb is no verb to conjugate.
  if (MODALS.has(lower) || IRREGULAR_PAST.has(lower) || /(?:ed|ing)$/.test(lower) || isAdverb(lower)) return verb;
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`;
  if (/(?:s|sh|ch|x|z|o)$/.test(lower)) return `${verb}es`;
  return `${verb}s`;
}

const CONTRACTED_SUBJECT: ReadonlyArray<[RegExp, string]> = [
  [/^I'm\b/i, 'User is'],
  [/^I am\b/i, 'User is'],
  [/^I've\b/i, 'User has'],
  [/^I'd\b/i, 'User would'],
  [/^I'll\b/i, 'User will'],
];

function subjectToUser(text: string): string {
  for (const [pattern, replacement] of CONTRACTED_SUBJECT)
    if (pattern.test(text)) return text.replace(pattern, replacement);
  const words = text.split(' ');
  if (words[0]?.toLowerCase() !== 'i') return text;
  let verbIndex = 1;
  for (;;) {
    if (verbIndex < words.length && isAdverb(words[verbIndex])) verbIndex++;
    else if (HEDGES.test(`${words[verbIndex]} ${words[verbIndex + 1]}`)) verbIndex += 2;
    else break;
  }
  if (verbIndex < words.length) words[verbIndex] = thirdPersonVerb(words[verbIndex]);
  words[0] = 'User';
  return words.join(' ');
}

const LATER_FIRST_PERSON: ReadonlyArray<[RegExp, string]> = [
  [/\bI'm\b/g, "they're"],
  [/\bI am\b/g, 'they are'],
  [/\bI was\b/g, 'they were'],
  [/\bI've\b/g, "they've"],
  [/\bI'd\b/g, "they'd"],
  [/\bI'll\b/g, "they'll"],
  [/\bI\b/g, 'they'],
  [/\bmyself\b/gi, 'themselves'],
  [/\bmine\b/gi, 'theirs'],
  [/\bmy\b/gi, 'their'],
  [/\bme\b/gi, 'them'],
];

/** "My sister lives…" → "User's sister lives…"; "I run…" → "User runs…"; later "my" → "their". */
export function toThirdPerson(fact: string): string {
  let text = fact.trim();
  if (/^my\b/i.test(text)) text = text.replace(/^my\b/i, "User's");
  else text = subjectToUser(text);
  const [head, ...rest] = text.split(' ');
  let tail = rest.join(' ');
  for (const [pattern, replacement] of LATER_FIRST_PERSON) tail = tail.replace(pattern, replacement);
  return `${head} ${tail}`.trim();
}
