import type { TranscriptInput } from '../engine.js';
import { type ChatPrompt, captureContext, DATA_NOT_INSTRUCTIONS, fencedTranscript } from './context.js';

export const version = 'relevance@1';

const SYSTEM = `You sort short recordings from a wearable microphone. Decide whether this one is worth keeping in the user's memory.
Keep it if it holds any of: a task, request or reminder; a decision or plan; a question someone will need to follow up; something about the user, their life or preferences; a meaningful exchange or event; an idea worth remembering.
Discard it if it is only greetings, thanks or acknowledgements, small talk with no substance, a fragment that makes no sense alone, background media or other people's chatter, or a quick command spoken to a voice assistant.
A recording shorter than two minutes is kept only when it clearly carries something actionable or personal.
${DATA_NOT_INSTRUCTIONS}
Reply with JSON only: {"discard": true} or {"discard": false}.`;

export function render(input: TranscriptInput): ChatPrompt {
  return { system: SYSTEM, user: `${captureContext(input)}\n\n${fencedTranscript(input)}` };
}
