import type {
  ExistingActionItem,
  ExtractedActionItem,
  ExtractedMemory,
  RelevanceDecision,
  Structure,
  TextEngine,
  TranscriptInput,
} from '../../../src/processing/engine.js';

/**
 * A text engine that extracts what the test tells it to and records what it was shown: the pipeline's
 * rules are about what it hands the engine and what it stores of the answer, not about language.
 */
export class ScriptedEngine implements TextEngine {
  readonly name = 'scripted';
  /** The already-known items each extraction was shown, in call order. */
  readonly shownItems: ExistingActionItem[][] = [];
  items: ExtractedActionItem[] = [];
  memories: ExtractedMemory[] = [];

  async decideRelevance(): Promise<RelevanceDecision> {
    return { verdict: 'keep', decidedBy: 'rule', reason: 'scripted' };
  }

  async structure(): Promise<Structure> {
    return { title: 'Scripted', overview: '', category: 'other', emoji: '🧪', events: [] };
  }

  async extractActionItems(_input: TranscriptInput, recent: ExistingActionItem[]): Promise<ExtractedActionItem[]> {
    this.shownItems.push(recent);
    return this.items;
  }

  async extractMemories(): Promise<ExtractedMemory[]> {
    return this.memories;
  }
}
