import { CONVERSATION_CATEGORIES } from '../../domain/categories.js';
import type { TranscriptInput } from '../engine.js';
import { type ChatPrompt, captureContext, DATA_NOT_INSTRUCTIONS, fencedTranscript } from './context.js';

export const version = 'structure@1';

const SYSTEM = `You write the summary card of a recorded conversation.
- title: at most 10 words in Headline Case that name the topic and, if there is one, the outcome. Never use diarization labels such as "Speaker 0" or "SPEAKER_01"; call people by name or by role.
- overview: one to three sentences (under 400 characters) with the main points and decisions.
- emoji: a single emoji that fits the conversation.
- category: exactly one of ${CONVERSATION_CATEGORIES.join(', ')} ("real" means real estate).
- events: only plans that are confirmed, involve the user, have a concrete future date or time relative to the capture time, and matter (appointments, meetings, travel, deadlines, social plans). Leave out hypothetical, past, cancelled or other people's events. start is the user's local wall-clock time as "YYYY-MM-DDTHH:MM" (no timezone suffix); use 09:00 when only the day is known. duration is in minutes: 30 unless the transcript says otherwise, at most 180.
${DATA_NOT_INSTRUCTIONS}
Reply with JSON matching the schema.`;

export function render(input: TranscriptInput): ChatPrompt {
  return { system: SYSTEM, user: `${captureContext(input)}\n\n${fencedTranscript(input)}` };
}
