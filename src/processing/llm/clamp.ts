import type { ExtractedActionItem, ExtractedEvent, ExtractedMemory, Structure, TranscriptInput } from '../engine.js';
import { CATEGORY_EMOJI } from '../local/lexicon.js';
import { KnownMemories } from '../local/memory-known.js';
import { capitalizeFirst, SPEAKER_PLACEHOLDER, squeezeSpaces, truncateChars, truncateWords } from '../local/text.js';
import { parseNaiveLocal, safeTimezone } from '../local/timezone.js';
import type { ActionItemsAnswer, MemoriesAnswer, StructureAnswer } from './schemas.js';

const MAX_TITLE_WORDS = 10;
const MAX_TITLE_CHARS = 100;
const MAX_OVERVIEW_CHARS = 400;
const MAX_EVENTS = 5;
const MAX_ITEMS = 10;
const MAX_MEMORIES = 4;
const MAX_DESCRIPTION_WORDS = 15;
const ONE_DAY = 86_400_000;

/** A model's local wall-clock answer ("2026-03-07T09:00") in the user's timezone; an explicit offset is honoured. */
export function localAnswerToInstant(text: string, timezone: string): Date | null {
  const naive = parseNaiveLocal(text, safeTimezone(timezone));
  if (naive !== null) return naive;
  if (!/(?:Z|[+-]\d{2}:?\d{2})$/i.test(text.trim())) return null;
  const explicit = new Date(text);
  return Number.isNaN(explicit.getTime()) ? null : explicit;
}

function cleanTitle(title: string): string {
  const withoutLabels = squeezeSpaces(title.replace(SPEAKER_PLACEHOLDER, '').replace(/["*#_]/g, ''));
  // Removing "Speaker 0" from "Speaker 0 and Dana …" leaves a dangling connective.
  const trimmed = withoutLabels.replace(/^(?:and|or|with|&)\s+/i, '');
  // Kept as the model wrote it (no re-casing: "iPhone", "NASA", sentence case survive), only bounded.
  return truncateChars(truncateWords(trimmed, MAX_TITLE_WORDS), MAX_TITLE_CHARS);
}

function cleanEmoji(emoji: string, fallback: string): string {
  const trimmed = emoji.trim();
  return trimmed.length > 0 && trimmed.length <= 16 && /\p{Extended_Pictographic}/u.test(trimmed) ? trimmed : fallback;
}

function clampEvent(event: StructureAnswer['events'][number], input: TranscriptInput): ExtractedEvent | null {
  const start = localAnswerToInstant(event.start, input.timezone);
  const title = cleanTitle(event.title);
  if (start === null || title === '' || start.getTime() < input.startedAt.getTime() - ONE_DAY) return null;
  const duration =
    Number.isFinite(event.duration) && event.duration > 0 ? Math.min(180, Math.round(event.duration)) : 30;
  return { title, description: truncateChars(squeezeSpaces(event.description), 300), start, duration };
}

/** Bounds every field; an empty or placeholder-only title is taken from the fallback structure. */
export function clampStructure(
  answer: StructureAnswer,
  input: TranscriptInput,
  fallbackTitle: () => Promise<string>,
): Promise<Structure> {
  const title = cleanTitle(answer.title);
  const events = answer.events
    .map((event) => clampEvent(event, input))
    .filter((event): event is ExtractedEvent => event !== null)
    .slice(0, MAX_EVENTS);
  const build = (finalTitle: string): Structure => ({
    title: finalTitle,
    overview: truncateChars(squeezeSpaces(answer.overview), MAX_OVERVIEW_CHARS),
    category: answer.category,
    emoji: cleanEmoji(answer.emoji, CATEGORY_EMOJI[answer.category]),
    events,
  });
  return title === '' ? fallbackTitle().then(build) : Promise.resolve(build(title));
}

function cleanDescription(text: string): string {
  return capitalizeFirst(truncateWords(squeezeSpaces(text).replace(/[.;,]+$/, ''), MAX_DESCRIPTION_WORDS));
}

/** SPEC research §3.4: due dates come back as local wall-clock; more than a day in the past means none. */
export function clampActionItems(answer: ActionItemsAnswer, input: TranscriptInput): ExtractedActionItem[] {
  return answer.action_items
    .map((item) => {
      const due = item.due_at === null ? null : localAnswerToInstant(item.due_at, input.timezone);
      const stale = due !== null && due.getTime() < input.startedAt.getTime() - ONE_DAY;
      return { description: cleanDescription(item.description), dueAt: stale ? null : due };
    })
    .filter((item) => item.description !== '')
    .slice(0, MAX_ITEMS);
}

function cleanTags(tags: string[], fallback: string): string[] {
  const cleaned = tags
    .map((tag) => tag.toLowerCase().trim().replace(/\s+/g, '-').slice(0, 30))
    .filter((tag) => tag !== '');
  const unique = [...new Set(cleaned)].slice(0, 3);
  return unique.length > 0 ? unique : [fallback];
}

/** At most four, bounded, and none that restates a known memory. */
export function clampMemories(answer: MemoriesAnswer, existing: ReadonlyArray<{ content: string }>): ExtractedMemory[] {
  const known = new KnownMemories(existing);
  const kept: ExtractedMemory[] = [];
  for (const memory of answer.memories) {
    const content = capitalizeFirst(truncateWords(squeezeSpaces(memory.content), MAX_DESCRIPTION_WORDS));
    if (content === '' || known.has(content)) continue;
    known.add(content);
    kept.push({ content, category: memory.category, tags: cleanTags(memory.tags, memory.category) });
    if (kept.length === MAX_MEMORIES) break;
  }
  return kept;
}
