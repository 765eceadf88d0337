import type {
  ExistingActionItem,
  ExtractedActionItem,
  ExtractedMemory,
  RelevanceDecision,
  Structure,
  TextEngine,
  TranscriptInput,
} from '../engine.js';
import { analysisOf, plainText } from '../local/analysis.js';
import { decideByPresence } from '../local/presence.js';
import { decideByRules } from '../local/relevance.js';
import * as actionItemsPrompt from '../prompts/action-items.js';
import * as memoriesPrompt from '../prompts/memories.js';
import * as relevancePrompt from '../prompts/relevance.js';
import * as structurePrompt from '../prompts/structure.js';
import { clampActionItems, clampMemories, clampStructure } from './clamp.js';
import { JsonChat } from './client.js';
import { fallbackReason } from './errors.js';
import { SCHEMAS } from './schemas.js';

export interface LlmEngineOptions {
  /** an OpenAI-compatible server, e.g. "http://127.0.0.1:11434/v1" (a bare host gets "/v1") */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** per request; default 30 s */
  timeoutMs?: number;
  /** retries after a timeout, connection error, 429 or 5xx; default 1 */
  maxRetries?: number;
  /** the engine that answers a step when the model cannot */
  fallback: TextEngine;
  /** told about every step that fell back, so the pipeline can record it on the conversation */
  onFallback?: (step: LlmStep, reason: string) => void;
  logger?: { warn(obj: object, msg: string): void };
}

export type LlmStep = 'relevance' | 'structure' | 'action_items' | 'memories';

/** The versions of the prompts in use, for the record kept with each processed conversation. */
export const PROMPT_VERSIONS: Record<LlmStep, string> = {
  relevance: relevancePrompt.version,
  structure: structurePrompt.version,
  action_items: actionItemsPrompt.version,
  memories: memoriesPrompt.version,
};

/** Each step asks the model for schema-checked JSON and falls back to the local engine on any failure. */
export class LlmEngine implements TextEngine {
  readonly name: string;
  /** the reason of the most recent fallback, e.g. "timeout" or "schema_mismatch" */
  lastFallbackReason?: string;
  /** how many steps have fallen back since the engine was created */
  fallbackCount = 0;
  private readonly chat: JsonChat;

  constructor(private readonly options: LlmEngineOptions) {
    this.name = `llm:${options.model}`;
    this.chat = new JsonChat({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      model: options.model,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 1,
    });
  }

  private recordFallback(step: LlmStep, error: unknown): void {
    const reason = fallbackReason(error);
    this.lastFallbackReason = reason;
    this.fallbackCount++;
    const detail = error instanceof Error ? error.message : String(error);
    this.options.logger?.warn({ step, reason, model: this.options.model, detail }, 'llm step fell back');
    this.options.onFallback?.(step, reason);
  }

  /** Runs a model step; on failure records why and answers with the fallback instead. */
  private async withFallback<T>(step: LlmStep, viaModel: () => Promise<T>, viaFallback: () => Promise<T>): Promise<T> {
    try {
      return await viaModel();
    } catch (error) {
      this.recordFallback(step, error);
      return viaFallback();
    }
  }

  /** SPEC research §3.2: rules first; the model only sees the ambiguous rest, and its errors keep. */
  async decideRelevance(input: TranscriptInput): Promise<RelevanceDecision> {
    const analysis = analysisOf(input);
    const text = plainText(analysis);
    const presence = decideByPresence(analysis, input.userName, text);
    const rules = presence.verdict === 'undecided' ? decideByRules(text) : presence;
    if (rules.verdict !== 'undecided') return { verdict: rules.verdict, decidedBy: 'rule', reason: rules.reason };
    try {
      const answer = await this.chat.ask(SCHEMAS.relevance, relevancePrompt.render(input));
      return { verdict: answer.discard ? 'discard' : 'keep', decidedBy: 'model', reason: rules.reason };
    } catch (error) {
      this.recordFallback('relevance', error);
      return { verdict: 'keep', decidedBy: 'model', reason: 'model_error' };
    }
  }

  async structure(input: TranscriptInput): Promise<Structure> {
    return this.withFallback(
      'structure',
      async () => {
        const answer = await this.chat.ask(SCHEMAS.structure, structurePrompt.render(input));
        return clampStructure(answer, input, async () => (await this.options.fallback.structure(input)).title);
      },
      () => this.options.fallback.structure(input),
    );
  }

  async extractActionItems(input: TranscriptInput, recent: ExistingActionItem[]): Promise<ExtractedActionItem[]> {
    return this.withFallback(
      'action_items',
      async () =>
        clampActionItems(await this.chat.ask(SCHEMAS.actionItems, actionItemsPrompt.render(input, recent)), input),
      () => this.options.fallback.extractActionItems(input, recent),
    );
  }

  async extractMemories(
    input: TranscriptInput,
    existing: ReadonlyArray<{ content: string }>,
  ): Promise<ExtractedMemory[]> {
    return this.withFallback(
      'memories',
      async () =>
        clampMemories(await this.chat.ask(SCHEMAS.memories, memoriesPrompt.render(input, existing)), existing),
      () => this.options.fallback.extractMemories(input, existing),
    );
  }
}

export function createLlmEngine(options: LlmEngineOptions): LlmEngine {
  return new LlmEngine(options);
}
