import type { ConversationCategory } from '../../domain/categories.js';
import type { Analysis } from './analysis.js';
import { KIN } from './memory-shapes.js';
import type { Scene } from './setting.js';
import { capitalizeFirst, headlineCase, squeezeSpaces, truncateChars, truncateWords } from './text.js';
import type { Topic } from './topics.js';

const MAX_TITLE_WORDS = 10;
/** Further topics join the headline when they are salient enough and the whole stays short. */
const SECOND_TOPIC_SHARE = 0.4;
const MAX_JOINED_WORDS = 7;
const MAX_TOPICS = 3;
/** A verb leads the headline only when the talk keeps coming back to doing it. */
const MIN_VERB_COUNT = 2;

const CATEGORY_LABEL: Partial<Record<ConversationCategory, string>> = { real: 'Real Estate', other: 'Conversation' };

function firstWords(analysis: Analysis, count: number): string {
  return truncateWords(squeezeSpaces((analysis.sentences[0]?.text ?? '').replace(/[.!?…]+$/u, '')), count);
}

/** A fallback title that is never empty: the category, or the opening words when wink cannot tag the language. */
function fallbackTitle(analysis: Analysis, category: ConversationCategory): string {
  const opening = firstWords(analysis, 6);
  if (/[^\p{Script=Latin}\p{P}\p{N}\s]/u.test(opening) && /\p{L}/u.test(opening)) return truncateChars(opening, 60);
  const label = CATEGORY_LABEL[category] ?? capitalizeFirst(category);
  return category === 'other' ? 'Short Conversation' : `${label} Conversation`;
}

const VOWELS = /[aeiou]/g;

/** English -ing form of a verb lemma ("plan" → "planning", "make" → "making", "tie" → "tying"). */
export function gerund(verb: string): string {
  if (verb.endsWith('ie')) return `${verb.slice(0, -2)}ying`;
  if (/(?:ee|ye|oe)$/.test(verb) || verb === 'be') return `${verb}ing`;
  if (/[^aeiou]e$/.test(verb)) return `${verb.slice(0, -1)}ing`;
  const oneSyllable = (verb.match(VOWELS) ?? []).length === 1;
  if (oneSyllable && /[^aeiou][aeiou][b-df-hj-np-tvz]$/.test(verb)) return `${verb}${verb.at(-1)}ing`;
  return `${verb}ing`;
}

/** The verb most often governing the topic ("book" in "book the flights"), if any. */
function mainVerb(topic: Topic): string | undefined {
  let best: string | undefined;
  let bestCount = MIN_VERB_COUNT - 1;
  for (const [verb, count] of topic.verbs) {
    if (count > bestCount) {
      best = verb;
      bestCount = count;
    }
  }
  return best;
}

/** The most salient topics whose words do not repeat one another, while the headline stays short. */
const isRelative = (topic: Topic): boolean => topic.words.length === 1 && KIN.test(topic.words[0]);

function distinctTopics(topics: Topic[]): Topic[] {
  const [best] = topics;
  const chosen = [best];
  let words = best.words.length;
  for (const topic of topics.slice(1)) {
    if (chosen.length >= MAX_TOPICS || topic.score < best.score * SECOND_TOPIC_SHARE) break;
    const repeats = chosen.some((other) => topic.lemmas.some((lemma) => other.lemmas.includes(lemma)));
    // "Mum, Sister and Father": one relative says who the talk was about; more say nothing of what.
    const secondRelative = isRelative(topic) && chosen.some(isRelative);
    if (repeats || secondRelative || words + topic.words.length > MAX_JOINED_WORDS) continue;
    chosen.push(topic);
    words += topic.words.length;
  }
  return chosen;
}

function headlineWords(topics: Topic[]): string[] {
  const chosen = distinctTopics(topics);
  const verb = mainVerb(chosen[0]);
  const phrases = chosen.map((topic) => topic.words.join(' '));
  const joined = phrases.length === 1 ? phrases[0] : `${phrases.slice(0, -1).join(', ')} and ${phrases.at(-1)}`;
  return verb === undefined ? joined.split(' ') : [capitalizeFirst(gerund(verb)), ...joined.split(' ')];
}

/**
 * A short headline of what the conversation was about: the most salient topic phrase, led by the
 * action done to it when there is one ("Booking Lisbon Flights"), or two topics ("Budget and
 * Venue Quote"); other languages keep their opening words.
 */
export function buildTitle(
  analysis: Analysis,
  topics: Topic[],
  category: ConversationCategory,
  language: string,
  /** the one other person the wearer talked with, by name, if known */
  withWhom: string | null = null,
  /** the scene the setting's strongest cue names, if any */
  scene?: Scene,
): string {
  const english = language.trim() === '' || /^en\b/i.test(language);
  if (!english && /\p{L}/u.test(firstWords(analysis, 8))) {
    return truncateChars(capitalizeFirst(firstWords(analysis, 8)), 80);
  }
  // The person met is named once, as the scene ("… with the Physio"), not also as a topic.
  const named = scene?.role === true ? topics.filter((topic) => topic.lemmas.join(' ') !== scene.text) : topics;
  if (named.length === 0) return fallbackTitle(analysis, category);
  const words = headlineWords(named);
  const said = words.join(' ').toLowerCase();
  // "Book Club: The Bee Sting and Lemon Drizzle", "Knee and Running with the Physio": the scene leads.
  if (scene !== undefined && !said.includes(scene.text)) {
    const short = headlineWords(named.slice(0, 2)).slice(0, MAX_TITLE_WORDS - 4);
    if (scene.role) return headlineCase(truncateWords([...short, 'with the', scene.text].join(' '), MAX_TITLE_WORDS));
    return headlineCase(truncateWords(`${scene.text}: ${short.join(' ')}`, MAX_TITLE_WORDS));
  }
  // "Invoice and Brand Workshop with Renata": who it was with, when that fits and is not said already.
  const withNamed =
    withWhom !== null && words.some((word) => word.replace(/[,.]$/, '').toLowerCase() === withWhom.toLowerCase());
  if (withWhom !== null && !withNamed && words.length + 1 + withWhom.split(' ').length <= MAX_TITLE_WORDS)
    words.push('with', withWhom);
  return headlineCase(truncateWords(words.join(' '), MAX_TITLE_WORDS));
}
