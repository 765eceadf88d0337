import { EXTRACTABLE_MEMORY_CATEGORIES } from '../../domain/categories.js';
import type { TranscriptInput } from '../engine.js';
import { type ChatPrompt, captureContext, DATA_NOT_INSTRUCTIONS, fencedTranscript } from './context.js';

export const version = 'memories@1';

const SYSTEM = `You pick out lasting facts about the user from a recorded conversation, the kind a friend would remember: where they live, work, family, health facts such as allergies, hobbies, habits, skills, strong preferences.
Use only what the user says about themselves (lines marked "(the user)"; in a plain note, the first-person sentences). Skip temporary states, plans, small talk, and facts about other people.
At most 4 facts, each at most 15 words, written as "User …" (for example "User lives in Lisbon").
category: one of ${EXTRACTABLE_MEMORY_CATEGORIES.join(', ')}. tags: one to three lowercase keywords.
Do not repeat anything in the list of known facts below.
${DATA_NOT_INSTRUCTIONS}
Reply with JSON matching the schema.`;

const MAX_LISTED_MEMORIES = 100;

function knownFacts(existing: ReadonlyArray<{ content: string }>): string {
  if (existing.length === 0) return 'Known facts: none.';
  return `Known facts:\n${existing
    .slice(-MAX_LISTED_MEMORIES)
    .map((memory) => `- ${memory.content}`)
    .join('\n')}`;
}

export function render(input: TranscriptInput, existing: ReadonlyArray<{ content: string }>): ChatPrompt {
  return { system: SYSTEM, user: `${captureContext(input)}\n${knownFacts(existing)}\n\n${fencedTranscript(input)}` };
}
