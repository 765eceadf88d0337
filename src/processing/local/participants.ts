import type { Analysis, Sentence } from './analysis.js';
import { isPlaceholderSpeaker, speakerAsPerson } from './text.js';

const CALENDAR =
  /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|today|tomorrow|tonight)$/i;

/**
 * A name said to someone: "..., Renata." or "Thanks, Renata"; at the opening ("Renata, ...") only a
 * word also capitalised inside some sentence, since "Perfect, ..." and "Hola, ..." open sentences too.
 */
const GREETING = /^(?:hi|hey|hello|hiya|thanks|cheers|bye|morning|evening|dear)$/i;

const TITLE = /^(?:Dr|Mr|Mrs|Ms|Miss|Prof|Doctor|Professor)\.?$/;

function addressedName(sentence: Sentence, midSentence: ReadonlySet<string>): string | null {
  const { tokens } = sentence;
  for (let i = 0; i < tokens.length; i++) {
    const word = tokens[i].value;
    if (tokens[i].pos !== 'PROPN' || !/^\p{Lu}\p{Ll}[\p{L}'-]*$/u.test(word) || CALENDAR.test(word)) continue;
    // "Morning, Dr Patel.": a title before the name is part of how it is called out.
    // Only in the wearer's words: another speaker's "Mr Greene" is most often the wearer.
    const titled = sentence.isUser && TITLE.test(tokens[i - 1]?.value ?? '');
    const before = tokens[titled ? i - 2 : i - 1]?.value;
    const after = tokens[i + 1]?.value;
    const opening = i === 0 && after === ',' && midSentence.has(word);
    const closing = before === ',' && (after === undefined || /^[.!?]$/.test(after));
    // "Hi Carla,", "Thanks Carla.": a greeting or thanks before the name calls it out without a comma.
    const greeted = GREETING.test(before ?? '') && (after === undefined || /^[.,!?]$/.test(after));
    if (opening || closing || greeted) return titled ? `${tokens[i - 1].value.replace(/\.$/, '')} ${word}` : word;
  }
  return null;
}

const calledCache = new WeakMap<Analysis, Set<string>>();

/** Every name someone in the conversation calls out to ("Marta, can you…", "Thanks, Dev."), once per analysis. */
export function namesCalledOut(analysis: Analysis): Set<string> {
  const cached = calledCache.get(analysis);
  if (cached !== undefined) return cached;
  const inside = capitalisedInside(analysis);
  const names = new Set<string>();
  for (const sentence of analysis.sentences) {
    const name = addressedName(sentence, inside);
    if (name !== null) names.add(name);
    // "Mr Benali" is also called by the name alone.
    if (name?.includes(' ')) names.add(name.split(' ').at(-1) ?? name);
  }
  calledCache.set(analysis, names);
  return names;
}

const insideCache = new WeakMap<Analysis, Set<string>>();

/** Capitalised words seen after a sentence's first word: names, not sentence openings (once per analysis). */
export function capitalisedInside(analysis: Analysis): Set<string> {
  const cached = insideCache.get(analysis);
  if (cached !== undefined) return cached;
  const words = new Set<string>();
  for (const { tokens } of analysis.sentences) {
    for (let i = 1; i < tokens.length; i++) {
      // "[pause] Angry.", "— Right": a word after a bracket, a dash or a quote opens what is said.
      if (/^[[\]()"“”‘’—–:-]$/.test(tokens[i - 1].value)) continue;
      if (/^\p{Lu}\p{Ll}/u.test(tokens[i].value)) words.add(tokens[i].value);
    }
  }
  insideCache.set(analysis, words);
  return words;
}

/**
 * The people the wearer talks with, by name: the other speakers' labels when diarization named them,
 * else the names the speakers address each other by (never the wearer's own name).
 */
export function otherParticipants(analysis: Analysis, userName: string): { named: string[]; count: number } {
  const others = new Set(analysis.turns.filter((turn) => !turn.isUser).map((turn) => turn.speaker));
  const labelled = [...others].filter((speaker) => !isPlaceholderSpeaker(speaker)).map(speakerAsPerson);
  if (labelled.length > 0 || others.size === 0) return { named: labelled, count: others.size };
  const own = new Set(userName.toLowerCase().split(/\s+/));
  // "Mr. Benali" called out to a wearer named Karim Benali is the wearer.
  const called = [...namesCalledOut(analysis)];
  const addressed = called.filter(
    (name) =>
      !own.has(name.toLowerCase()) &&
      !own.has(name.split(' ').at(-1)?.toLowerCase() ?? '') &&
      // "Benali" alone beside "Mr Benali" is the same person.
      !called.some((other) => other !== name && other.endsWith(` ${name}`)),
  );
  // Names only stand for the other speakers when there are no more of them than speakers.
  const named = addressed.length <= others.size ? addressed : [];
  return { named, count: others.size };
}

const addressedCache = new WeakMap<Analysis, string | null>();

/** The one name the wearer addresses someone by ("…, Renata."), or null (none, or several); once per analysis. */
export function addressedByWearer(analysis: Analysis): string | null {
  const cached = addressedCache.get(analysis);
  if (cached !== undefined) return cached;
  const name = soleAddressed(analysis);
  addressedCache.set(analysis, name);
  return name;
}

function soleAddressed(analysis: Analysis): string | null {
  const midSentence = capitalisedInside(analysis);
  const names = new Set<string>();
  analysis.sentences.forEach((sentence, index) => {
    if (!sentence.isUser) return;
    const name = addressedName(sentence, midSentence);
    // "The logo, my designer has it, Rodrigo. I'll ask him today.": a name spoken of, not to.
    const next = analysis.sentences[index + 1];
    const spokenOf = next !== undefined && next.turn === sentence.turn && /\b(?:him|her|he|she)\b/i.test(next.text);
    if (name !== null && !spokenOf) names.add(name);
  });
  return names.size === 1 ? [...names][0] : null;
}

/** The name a sentence ends by addressing ("I'll send it today, Renata."), if it does. */
export function closingVocative(sentence: Sentence): string | null {
  const words = sentence.tokens.filter((token) => token.kind !== 'punctuation' || token.value === ',');
  const last = words.at(-1);
  const before = words.at(-2);
  if (last === undefined || before?.value !== ',' || last.pos !== 'PROPN' || CALENDAR.test(last.value)) return null;
  return /^\p{Lu}\p{Ll}[\p{L}'-]*$/u.test(last.value) ? last.value : null;
}
