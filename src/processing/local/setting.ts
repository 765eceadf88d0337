import type { ConversationCategory } from '../../domain/categories.js';
import type { Analysis, Sentence } from './analysis.js';
import { isProfession } from './memory-patterns.js';
import { SETTING_CUES } from './setting-cues.js';
import { isRoleWord } from './text.js';

/**
 * The setting of a conversation: who the other party is and what the encounter is (a dentist
 * visit, a call to the bank, a lecture). A life log files a conversation under its setting, so a
 * novel discussed in the dentist's chair is still a health visit; the topic lexicon decides only
 * when no setting is clear.
 */

const ROLE_WEIGHT = 2;
const ENCOUNTER_WEIGHT = 1;
/** The opening lines set the scene ("claims department, how can I help?"). */
const OPENING_WEIGHT = 2;
const OPENING_SENTENCES = 2;
/** A repeated cue keeps adding evidence, but only so often: a long talk about one thing is one cue. */
const MAX_COUNTED = 3;
/** Cues from both sides of a conversation describe the encounter, not one speaker's aside. */
const SHARED_FACTOR = 1.5;
/** Evidence a setting needs to decide the category (a role named in the opening, or several cues)… */
const MIN_SETTING = 4;
/** …and how far it must lead the next setting. */
const MARGIN = 1.5;

interface Cue {
  category: ConversationCategory;
  weight: number;
}

const CUES: ReadonlyMap<string, Cue> = (() => {
  const index = new Map<string, Cue>();
  const add = (list: string, category: ConversationCategory, weight: number) => {
    for (const entry of list.split(',')) index.set(wordsOf(entry).join(' '), { category, weight });
  };
  for (const cues of SETTING_CUES) {
    add(cues.encounters, cues.category, ENCOUNTER_WEIGHT);
    add(cues.roles, cues.category, ROLE_WEIGHT);
  }
  return index;
})();
const LONGEST_CUE = Math.max(...[...CUES.keys()].map((cue) => cue.split(' ').length));
/** Words that begin a phrase cue: only these are worth trying longer spans from. */
const PHRASE_STARTS: ReadonlySet<string> = new Set(
  [...CUES.keys()].filter((cue) => cue.includes(' ')).map((cue) => cue.split(' ')[0]),
);

/** Whether a phrase (lowercase lemmas) is one of the setting's cues: a role or an encounter. */
export function isSettingCue(phrase: string): boolean {
  return CUES.has(phrase);
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9&]+/g) ?? [];
}

/** The singular a plural may stand for ("dentists", "surgeries", "classes"), or undefined. */
function singulars(word: string): string[] {
  if (!word.endsWith('s') || word.length < 4) return [];
  const forms = [word.slice(0, -1)];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  return forms;
}

/** The longest cue starting at a word, with how many words it spans. */
function cueAt(words: string[], start: number): { cue: string; length: number } | undefined {
  const longest = PHRASE_STARTS.has(words[start]) ? Math.min(LONGEST_CUE, words.length - start) : 1;
  for (let length = longest; length >= 1; length--) {
    const phrase = words.slice(start, start + length);
    const last = phrase[length - 1];
    for (const form of [last, ...singulars(last)]) {
      const cue = [...phrase.slice(0, -1), form].join(' ');
      if (CUES.has(cue)) return { cue, length };
    }
  }
  return undefined;
}

interface CueUse {
  count: number;
  speakers: Set<string>;
  opening: boolean;
}

/** A cue's evidence: more when repeated, when both sides say it, and when it opens the conversation. */
function cueScore(use: CueUse, weight: number): number {
  const spread = use.speakers.size > 1 ? SHARED_FACTOR : 1;
  return weight * (Math.min(use.count, MAX_COUNTED) * spread + (use.opening ? OPENING_WEIGHT : 0));
}

// The category, the memories, the title and the health-visit check all read the cues of one parse.
const usesCache = new WeakMap<Analysis, Map<string, CueUse>>();

function cueUses(analysis: Analysis): Map<string, CueUse> {
  const cached = usesCache.get(analysis);
  if (cached !== undefined) return cached;
  const uses = new Map<string, CueUse>();
  analysis.sentences.forEach((sentence: Sentence, index) => {
    const words = wordsOf(sentence.text);
    for (let start = 0; start < words.length; start++) {
      const found = cueAt(words, start);
      if (found === undefined) continue;
      start += found.length - 1;
      const use = uses.get(found.cue) ?? { count: 0, speakers: new Set<string>(), opening: false };
      uses.set(found.cue, use);
      use.count++;
      use.speakers.add(sentence.speaker);
      use.opening ||= index < OPENING_SENTENCES;
    }
  });
  usesCache.set(analysis, uses);
  return uses;
}

/** Every setting's evidence, summed over the cues said in the conversation. */
export function settingScores(analysis: Analysis): Map<ConversationCategory, number> {
  const uses = cueUses(analysis);
  const scores = new Map<ConversationCategory, number>();
  for (const [text, use] of uses) {
    const cue = CUES.get(text) as Cue;
    // "The doctor says my knee is fine": a role talked about is a topic, not whom the wearer met.
    const weight = cue.weight === ROLE_WEIGHT && reportedOn(analysis, text) ? ENCOUNTER_WEIGHT : cue.weight;
    scores.set(cue.category, (scores.get(cue.category) ?? 0) + cueScore(use, weight));
  }
  return scores;
}

/** Words a relative is called by to their face, in several languages a household may speak. */
const KIN_ADDRESS =
  'mum|mom|mam|ma|mama|mamma|mummy|mommy|mother|dad|daddy|papa|pa|father|tata|ima|abba|amma|appa|beta|nan|nana|nanna|gran|granny|grandma|grandmother|grandpa|granddad|grandad|grandfather|savta|saba|auntie|aunty|uncle';
/** A word of address said to someone's face: "Hi Mum", "Yes, Mama", "Goodnight Daddy." */
export function addressedAs(words: string): RegExp {
  return new RegExp(
    `(?:^|[,!?]\\s*|\\b(?:hi|hey|hello|thanks|thank you|bye|love you|yes|no|okay|ok|night|goodnight|morning)\\s+)(?:${words})\\s*(?:[,.!?]|$)`,
    'i',
  );
}
const VOCATIVE_KIN = addressedAs(KIN_ADDRESS);

/** A relative is one of the speakers: addressed as one ("Hi Mum", "Yes, Mama") or labelled as one. */
export function kinPresent(analysis: Analysis): boolean {
  const labelled = new RegExp(`^(?:${KIN_ADDRESS})$`, 'i');
  return (
    analysis.turns.some((turn) => labelled.test(turn.speaker)) ||
    analysis.sentences.some((sentence) => VOCATIVE_KIN.test(sentence.text))
  );
}

/** The conversation's setting when one is clear: enough evidence, well ahead of any other. */
export function settingOf(analysis: Analysis): ConversationCategory | undefined {
  // A memo or a monologue has no other party: the roles it names are errands and plans, not a scene.
  if (!analysis.dialogue) return undefined;
  const [first, second] = [...settingScores(analysis)].sort((a, b) => b[1] - a[1]);
  if (first === undefined || first[1] < MIN_SETTING) return undefined;
  if (second !== undefined && first[1] < MARGIN * second[1]) return undefined;
  return first[0];
}

const CLINICAL =
  /\b(?:prescri\w*|milligrams?|mg|diagnos\w*|symptoms?|blood (?:test|work|pressure)|results|scan|monitor|dose|tablets?|referral|clinic|patient|follow-up)\b/i;

const visitCache = new WeakMap<Analysis, boolean>();

/**
 * A visit about the wearer's health: health leads the setting's evidence (if only tied), or no other
 * setting does and the other party talks like a clinician in two sentences or more.
 */
export function healthVisit(analysis: Analysis): boolean {
  const cached = visitCache.get(analysis);
  if (cached !== undefined) return cached;
  const visit = readsAsHealthVisit(analysis);
  visitCache.set(analysis, visit);
  return visit;
}

function readsAsHealthVisit(analysis: Analysis): boolean {
  const scores = settingScores(analysis);
  const health = scores.get('health') ?? 0;
  const top = Math.max(0, ...scores.values());
  if (health > 0 && health >= top) return true;
  if (top > health) return false;
  const clinical = analysis.sentences.filter((sentence) => !sentence.isUser && CLINICAL.test(sentence.text));
  return clinical.length >= 2;
}

/** Evidence the strongest cue needs to name the scene of a headline: a role said twice, or in the opening. */
const MIN_SCENE = 5;

export interface Scene {
  /** the cue as said: "vet", "book club", "job interview" */
  text: string;
  /** a person the wearer met ("the dentist"), rather than an encounter ("a first date") */
  role: boolean;
}

const NOT_A_SCENE = /^(?:boyfriend|girlfriend|[a-z]{1,3})$/;

/** "the vet", "the landlord", "the physio": a cue that names whom the wearer met. */
function isPerson(cue: string): boolean {
  const last = cue.split(' ').at(-1) ?? '';
  return isProfession([last]) || isRoleWord(last);
}

/** "the landlord called", "my dentist said": the role is talked about, in the third person. */
const reportedPatterns = new Map<string, RegExp>();

function reportedOn(analysis: Analysis, cue: string): boolean {
  let reported = reportedPatterns.get(cue);
  if (reported === undefined) {
    reported = new RegExp(
      `\\b(?:the|my|our|his|her|their) ${cue} (?:called|rang|texted|emailed|messaged|said|says|told|wants|thinks|is|was|has|had)\\b`,
      'i',
    );
    // The cues are a fixed vocabulary, so the patterns stay few.
    reportedPatterns.set(cue, reported);
  }
  const pattern = reported;
  return analysis.sentences.some((sentence) => pattern.test(sentence.text));
}

/** The strongest single cue of the setting, when it is strong enough to name the scene. */
export function sceneOf(analysis: Analysis): Scene | undefined {
  // Only a clear setting of a conversation with someone names a scene (a memo's cues are its errands).
  const setting = settingOf(analysis);
  if (setting === undefined) return undefined;
  let best: { text: string; score: number; role: boolean } | undefined;
  for (const [text, use] of cueUses(analysis)) {
    const { weight, category } = CUES.get(text) as Cue;
    // A partner mentioned ("my girlfriend") or initials ("HR") say who, not where.
    if (category !== setting || NOT_A_SCENE.test(text)) continue;
    const score = cueScore(use, weight);
    const role = isPerson(text);
    // "The landlord called, he's selling": someone reported on is not the one talked with.
    if (role && reportedOn(analysis, text)) continue;
    if (best === undefined || score > best.score) best = { text, score, role };
  }
  return best !== undefined && best.score >= MIN_SCENE ? { text: best.text, role: best.role } : undefined;
}
