import type { ExtractedActionItem, ExtractedEvent } from '../engine.js';
import type { Analysis, Sentence } from './analysis.js';
import { lemmaOf } from './keywords.js';
import { otherParticipants } from './participants.js';
import type { Scene } from './setting.js';
import { escapeRegExp, isPlaceholderSpeaker, squeezeSpaces, truncateChars } from './text.js';
import { localDateTime, safeTimezone } from './timezone.js';
import type { Topic } from './topics.js';

const MAX_OVERVIEW_CHARS = 400;
const MAX_TOPICS = 3;
const MAX_ITEMS = 2;
const MAX_DECISION_WORDS = 14;
/** Verbs whose past tense reports a decision ("we agreed to…", "they chose…"). */
const DECISION_VERBS = new Set(['decide', 'agree', 'settle', 'choose', 'conclude']);
/** The decision is reported only when the speakers made it themselves ("we agreed", "I decided"). */
const DECIDERS = new Set(['we', 'i', 'they', 'both', 'all']);
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = 'January February March April May June July August September October November December'.split(' ');

export interface OverviewFacts {
  analysis: Analysis;
  userName: string;
  timezone: string;
  topics: Topic[];
  actionItems: ExtractedActionItem[];
  events: ExtractedEvent[];
  /** the scene the setting names, when clear ("physio", "first date") */
  scene?: Scene;
}

function listed(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

function othersPhrase(named: string[], count: number): string {
  if (named.length === count && count > 0) return listed(named.slice(0, 3));
  if (count === 1) return 'another person';
  return named.length > 0 ? `${listed(named.slice(0, 2))} and others` : 'others';
}

/** Who spoke and about what: "Sam and Dana discussed the venue quote and the team dinner." */
function topicSentence(facts: OverviewFacts, user: string): string {
  // The scene's role is who took part, not what was discussed ("the priest discussed priest…").
  const role = facts.scene?.role === true ? facts.scene.text : undefined;
  const displays = facts.topics.map((topic) => topic.display).filter((display) => display.toLowerCase() !== role);
  // "climbing gym, gym and peanuts": a topic inside another already said is not said again.
  const subjects = displays
    .filter(
      (display, index) =>
        !displays.some(
          (other, at) =>
            at !== index &&
            other.length > display.length &&
            new RegExp(`\\b${escapeRegExp(display)}\\b`, 'i').test(other),
        ),
    )
    .slice(0, MAX_TOPICS);
  const about = subjects.length > 0 ? listed(subjects) : 'a few things';
  const { named, count } = otherParticipants(facts.analysis, facts.userName);
  const userSpoke = facts.analysis.turns.some((turn) => turn.isUser);
  if (count === 0) return `${user} recorded a note about ${about}.`;
  // "Aino and the physio discussed…": an unnamed other party is named by the role the setting gives them.
  const others =
    count === 1 && named.length === 0 && facts.scene?.role === true
      ? `the ${facts.scene.text}`
      : othersPhrase(named, count);
  if (!userSpoke) return `${others.charAt(0).toUpperCase()}${others.slice(1)} talked about ${about}.`;
  return `${user} and ${others} discussed ${about}.`;
}

/** A to-do written for the user ("Send my notes to Dana") as a report ("send their notes to Dana"). */
function asReport(description: string): string {
  const text = description.charAt(0).toLowerCase() + description.slice(1);
  return (
    text
      .replace(/\bmyself\b/gi, 'themselves')
      .replace(/\bmy\b/gi, 'their')
      .replace(/\bme\b/gi, 'them')
      // "book the gym for the two of us": the user and the others are "them" in a report.
      .replace(/\bus\b/g, 'them')
      .replace(/\bour\b/g, 'their')
      .replace(/\bI\b(?!')/g, 'they')
      // "Book the earliest slot (residence card)": the list's topic a to-do carries is no part of a sentence.
      .replace(/\s+\([^)]*\)$/u, '')
      .replace(/[.!?]+$/u, '')
  );
}

function commitmentSentence(facts: OverviewFacts, user: string): string | undefined {
  const items = facts.actionItems.slice(0, MAX_ITEMS).map((item) => asReport(item.description));
  return items.length === 0 ? undefined : `${user} will ${listed(items)}.`;
}

/** "We decided to move the launch to March" → "They decided to move the launch to March." */
function decisionOf(sentence: Sentence, subject: string): string | undefined {
  const tokens = sentence.tokens;
  const index = tokens.findIndex(
    (token, at) =>
      token.pos === 'VERB' &&
      DECISION_VERBS.has(lemmaOf(token)) &&
      /ed$/.test(token.normal) &&
      DECIDERS.has(tokens[at - 1]?.normal ?? ''),
  );
  // Only a whole, short clause is reported; a long one would need cutting mid-thought.
  const rest = tokens.slice(index);
  if (index < 0 || rest.length > MAX_DECISION_WORDS) return undefined;
  const clause = squeezeSpaces(
    rest
      .map((token) => token.value)
      .join(' ')
      .replace(/\s+([,.!?;:'])/g, '$1')
      .replace(/ - /g, '-'),
  )
    .replace(/[,;:]?\s*(?:but|because|so|although|and then)\b.*$/i, '')
    .replace(/[\s,.!?;:]+$/u, '');
  const reported = clause
    .replace(/\bwe\b/gi, 'they')
    .replace(/\bour\b/gi, 'their')
    .replace(/\bus\b/gi, 'them');
  return reported.split(' ').length < 4 ? undefined : `${subject} ${reported}.`;
}

function decisionSentence(facts: OverviewFacts, user: string): string | undefined {
  const subject = facts.analysis.dialogue ? 'They' : user;
  for (const sentence of facts.analysis.sentences) {
    const decision = decisionOf(sentence, subject);
    if (decision !== undefined) return decision;
  }
  return undefined;
}

function eventSentence(facts: OverviewFacts): string | undefined {
  // A one-word title ("Lucas", "Leg") is too thin to report on its own.
  // A to-do dated like an event was reported with the commitments already.
  const reported = new Set(facts.actionItems.map((item) => item.description.toLowerCase()));
  const event = facts.events.find(
    (candidate) => candidate.title.trim().split(/\s+/).length >= 2 && !reported.has(candidate.title.toLowerCase()),
  );
  if (event === undefined) return undefined;
  const local = localDateTime(event.start, safeTimezone(facts.timezone));
  const weekday = WEEKDAYS[new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay()];
  return `${event.title.replace(/[.!?]+$/u, '')} is planned for ${weekday}, ${MONTHS[local.month - 1]} ${local.day}.`;
}

/**
 * A written overview of one to three sentences: who talked about what, what the user committed
 * to, and what was decided or scheduled. Nothing is copied from the transcript except the topics
 * and the extracted items it reports.
 */
export function buildOverview(facts: OverviewFacts): string {
  const user = isPlaceholderSpeaker(facts.userName) ? 'The user' : facts.userName.trim();
  const sentences = [
    topicSentence(facts, user),
    commitmentSentence(facts, user),
    decisionSentence(facts, user) ?? eventSentence(facts),
  ].filter((sentence): sentence is string => sentence !== undefined);
  return truncateChars(sentences.join(' '), MAX_OVERVIEW_CHARS);
}
