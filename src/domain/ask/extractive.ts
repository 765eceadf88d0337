import type { Retrieved } from './retrieval.js';
import { stem } from './words.js';

/** A sentence that may answer the question, from one retrieved conversation (`source`: 1-based). */
interface Candidate {
  text: string;
  source: number;
  /** overview 0, action item 1, transcript 2: the order among equally good sentences */
  kind: number;
  score: number;
}

const MAX_SENTENCES = 5;
const PER_SOURCE = 2;
const MAX_CHARS = 240;
const TASK_QUESTION = /\b(?:to-?dos?|tasks?|action items?|follow[- ]?ups?|promised?|need to|have to|supposed to)\b/i;

const sentencesOf = (text: string): string[] =>
  text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => /\p{L}/u.test(s));

const clip = (text: string): string => (text.length <= MAX_CHARS ? text : `${text.slice(0, MAX_CHARS - 1).trimEnd()}…`);

const stemsOf = (text: string): Set<string> => new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(stem));

/** Every overview sentence, action item and transcript sentence of the retrieved conversations. */
function candidates(retrieved: readonly Retrieved[]): Candidate[] {
  return retrieved.flatMap(({ view, text }, i) => {
    const source = i + 1;
    const spoken = view.transcript_segments?.length
      ? view.transcript_segments.flatMap((s) => sentencesOf(s.text).map((t) => `${s.speaker_name}: ${t}`))
      : sentencesOf(text ?? '');
    return [
      ...sentencesOf(view.structured.overview).map((t) => ({ text: t, source, kind: 0, score: 0 })),
      ...view.structured.action_items.map((a) => ({ text: `To do: ${a.description}`, source, kind: 1, score: 0 })),
      ...spoken.map((t) => ({ text: t, source, kind: 2, score: 0 })),
    ];
  });
}

/** Sentences sharing the most of the question's words, at most two per conversation, best first. */
function bestSentences(question: string, words: readonly string[], retrieved: readonly Retrieved[]): Candidate[] {
  const wanted = new Set(words.map(stem));
  const tasks = TASK_QUESTION.test(question);
  const scored = candidates(retrieved)
    .map((c) => {
      const stems = stemsOf(c.text);
      const overlap = [...wanted].filter((w) => stems.has(w)).length / Math.max(1, wanted.size);
      return { ...c, score: overlap + (tasks && c.kind === 1 ? 0.5 : 0) };
    })
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || a.source - b.source || a.kind - b.kind);
  const chosen: Candidate[] = [];
  const seen = new Set<string>();
  const perSource = new Map<number, number>();
  for (const c of scored) {
    const key = c.text.toLowerCase().replace(/\W+/g, ' ').trim();
    if (seen.has(key) || (perSource.get(c.source) ?? 0) >= PER_SOURCE) continue;
    seen.add(key);
    perSource.set(c.source, (perSource.get(c.source) ?? 0) + 1);
    chosen.push(c);
    if (chosen.length === MAX_SENTENCES) break;
  }
  return chosen;
}

/** One line per conversation: its title and the first sentence of its overview. */
function overviewLines(retrieved: readonly Retrieved[]): string[] {
  return retrieved.map(({ view }, i) => {
    const first = sentencesOf(view.structured.overview)[0];
    const title = view.structured.title || 'Untitled conversation';
    return `• ${clip(first ? `${title}: ${first}` : title)} [${i + 1}]`;
  });
}

/**
 * The offline answer (no LLM): the retrieved conversations' sentences that share the most words with the
 * question, each cited by its source number; for a question with no words to match ("what happened
 * yesterday?"), or no sentence sharing one, each conversation's title and overview.
 */
export function extractiveAnswer(
  question: string,
  words: readonly string[],
  retrieved: readonly Retrieved[],
  when: string | null,
): string {
  const count = retrieved.length === 1 ? '1 conversation' : `${retrieved.length} conversations`;
  const lead = `From ${count}${when ? ` (${when})` : ''}:`;
  const best = words.length > 0 ? bestSentences(question, words, retrieved) : [];
  const lines = best.length > 0 ? best.map((c) => `• ${clip(c.text)} [${c.source}]`) : overviewLines(retrieved);
  return [lead, ...lines].join('\n');
}
