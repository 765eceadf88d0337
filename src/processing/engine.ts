import type { ConversationCategory, MemoryCategory } from '../domain/categories.js';

/** What an engine sees of a conversation. Times are absolute; segment times are seconds from start. */
export interface TranscriptInput {
  /** Full text: the created text, or the segments joined as "Speaker: text" lines. */
  text: string;
  segments: ReadonlyArray<{ text: string; speaker: string; isUser: boolean; start: number; end: number }>;
  startedAt: Date;
  /** IANA timezone of the user, e.g. "Europe/Berlin"; invalid values are treated as UTC. */
  timezone: string;
  language: string;
  userName: string;
}

export type RelevanceVerdict = 'keep' | 'discard' | 'undecided';

export interface RelevanceDecision {
  verdict: 'keep' | 'discard';
  /** rule | model | policy | user */
  decidedBy: string;
  /** e.g. empty_transcript, filler_only, mic_check, no_content_words, explicit_reminder, substantial_length, ambiguous */
  reason: string;
}

export interface ExtractedEvent {
  title: string;
  description: string;
  start: Date;
  /** minutes; SPEC §2.1 default 30 */
  duration: number;
}

export interface Structure {
  /** ≤ 10 words, headline case; never empty for a kept conversation */
  title: string;
  overview: string;
  category: ConversationCategory;
  emoji: string;
  events: ExtractedEvent[];
}

export interface ExistingActionItem {
  id: string;
  description: string;
  dueAt: Date | null;
  createdAt: Date;
}

export interface ExtractedActionItem {
  description: string;
  dueAt: Date | null;
}

export interface ExtractedMemory {
  content: string;
  category: MemoryCategory;
  tags: string[];
}

/** A text engine: the local NLP engine (default) or an LLM-backed one. All methods are pure over their inputs. */
export interface TextEngine {
  readonly name: string;
  decideRelevance(input: TranscriptInput): Promise<RelevanceDecision>;
  structure(input: TranscriptInput): Promise<Structure>;
  extractActionItems(input: TranscriptInput, recent: ExistingActionItem[]): Promise<ExtractedActionItem[]>;
  extractMemories(input: TranscriptInput, existing: ReadonlyArray<{ content: string }>): Promise<ExtractedMemory[]>;
}
