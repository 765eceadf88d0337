import type { Retrieved } from './retrieval.js';

// Bounds on what the model reads of each conversation's words, and of all of them together.
const TRANSCRIPT_CHARS = 6000;
const CONTEXT_CHARS = 40_000;

const localTime = (instant: number | string, timezone: string): string =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    weekday: 'short',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(instant));

const clipped = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max)} […]`);

/** One conversation as the model reads it, numbered for citation. */
function renderSource({ view, text }: Retrieved, index: number, timezone: string): string {
  const spoken = view.transcript_segments?.length
    ? view.transcript_segments.map((s) => `${s.speaker_name}: ${s.text}`).join('\n')
    : (text ?? '');
  const items = view.structured.action_items.map((a) => `- ${a.description}${a.completed ? ' (done)' : ''}`);
  return [
    `[${index + 1}] ${view.structured.title || 'Untitled conversation'} — ${localTime(view.started_at ?? view.created_at, timezone)}`,
    view.structured.overview ? `Summary: ${view.structured.overview}` : '',
    items.length > 0 ? `Action items:\n${items.join('\n')}` : '',
    spoken ? `Transcript:\n${clipped(spoken, TRANSCRIPT_CHARS)}` : '',
  ]
    .filter((part) => part !== '')
    .join('\n');
}

/**
 * The grounded prompt: the question, the user's clock, and the retrieved conversations only. The model
 * is told to use nothing else and to cite each fact by its conversation's number.
 */
export function askPrompt(question: string, retrieved: readonly Retrieved[], now: number, timezone: string): string {
  const sources = clipped(retrieved.map((r, i) => renderSource(r, i, timezone)).join('\n\n'), CONTEXT_CHARS);
  return `You answer a person's question about their own life using ONLY the conversations of theirs listed below.

Rules:
- Use only facts stated in these conversations. Do not add outside knowledge, guesses or general advice.
- If the conversations do not answer the question, say that you couldn't find it in their conversations.
- Cite every fact with the number of the conversation it comes from in square brackets, like [1] or [2][3].
- Speak to the person as "you". Be brief: a few sentences or a short list, plain text.
- Resolve relative dates from each conversation's date and the current time below.

Current time: ${localTime(now, timezone)} (${timezone})

Question: ${question}

Conversations:
${sources}

Answer:`;
}
