import type { ExistingActionItem, TranscriptInput } from '../engine.js';
import { type ChatPrompt, captureContext, DATA_NOT_INSTRUCTIONS, fencedTranscript } from './context.js';

export const version = 'action-items@1';

const SYSTEM = `You extract the user's to-do items from a recorded conversation. When in doubt, extract nothing.
Extract: commitments the user makes ("I'll send…", "I need to…"), requests someone makes of the user that the user is expected to do, and reminders the user sets ("remind me to…", "don't forget to…", "note to self").
Skip: things already done, things being done during the conversation, hypotheticals and vague wishes ("maybe someday"), other people's tasks, routines.
At most one item per topic; resolve "it" or "that" to what it refers to.
description: starts with a verb, at most 15 words, no dates or times in it.
due_at: the user's local wall-clock time as "YYYY-MM-DDTHH:MM" (no timezone suffix), or null. Count from the capture time: "tomorrow" is the next day, a weekday is its next occurrence, "next week" is seven days later. morning = 09:00, afternoon = 14:00, evening or tonight = 18:00, noon or lunch = 12:00, end of day = 23:59, a day without a time = 23:59, "ASAP" or "urgent" = two hours after the capture time.
Open items the user already has are listed below. Do not create an item that only re-mentions one of them; do create one when the user says "again", "another" or "more", or when the person or the deadline differs.
${DATA_NOT_INSTRUCTIONS}
Reply with JSON matching the schema.`;

const MAX_LISTED_ITEMS = 50;

function openItems(recent: ExistingActionItem[]): string {
  if (recent.length === 0) return 'Open items: none.';
  const lines = recent
    .slice(0, MAX_LISTED_ITEMS)
    .map((item) => `- ${item.description}${item.dueAt === null ? '' : ` (due ${item.dueAt.toISOString()})`}`);
  return `Open items:\n${lines.join('\n')}`;
}

export function render(input: TranscriptInput, recent: ExistingActionItem[]): ChatPrompt {
  return { system: SYSTEM, user: `${captureContext(input)}\n${openItems(recent)}\n\n${fencedTranscript(input)}` };
}
