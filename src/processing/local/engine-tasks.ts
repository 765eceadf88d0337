import type {
  ExistingActionItem,
  ExtractedActionItem,
  ExtractedMemory,
  RelevanceDecision,
  Structure,
  TranscriptInput,
} from '../engine.js';

/** What the engine pool sends a worker thread (engine-worker.ts); values cross by structured clone. */
export type EngineTask = { id: number; key: string; input: TranscriptInput } & (
  | { method: 'decideAndStructure' }
  | { method: 'structure' }
  | { method: 'extractActionItems'; recent: ExistingActionItem[] }
  | { method: 'extractMemories'; existing: ReadonlyArray<{ content: string }> }
);

export type EngineTaskBody = EngineTask extends infer T ? (T extends EngineTask ? Omit<T, 'id'> : never) : never;

/** Relevance, and the structure when the conversation is kept: the two steps a create waits for. */
export interface DecidedStructure {
  decision: RelevanceDecision;
  structure: Structure | null;
}

export type EngineResult = DecidedStructure | Structure | ExtractedActionItem[] | ExtractedMemory[];

export type EngineReply = { id: number; result: EngineResult; error?: undefined } | { id: number; error: string };
