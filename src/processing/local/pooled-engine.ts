import { createHash } from 'node:crypto';
import type {
  ExistingActionItem,
  ExtractedActionItem,
  ExtractedMemory,
  RelevanceDecision,
  Structure,
  TextEngine,
  TranscriptInput,
} from '../engine.js';
import type { EnginePool } from './engine-pool.js';
import type { DecidedStructure } from './engine-tasks.js';
import { LocalEngine } from './index.js';

/**
 * The local engine on the engine pool's threads. Relevance and structure, the steps a create waits
 * for, run as one task (the structure only when the conversation is kept) and the structure is handed
 * out when the pipeline asks for it; extraction runs in the background lane. Until the first thread has
 * loaded the engine (seconds after start), tasks run in-process, so a fresh server answers as before.
 */
export class PooledEngine implements TextEngine {
  readonly name = 'local';
  private readonly keys = new WeakMap<TranscriptInput, string>();
  private readonly structures = new WeakMap<TranscriptInput, { text: string; structure: Structure }>();
  private inProcess: LocalEngine | null = null;

  constructor(private readonly pool: EnginePool) {}

  /** Resolves once a thread has loaded the engine. */
  whenReady(): Promise<void> {
    return this.pool.whenReady();
  }

  async decideRelevance(input: TranscriptInput): Promise<RelevanceDecision> {
    const local = this.untilReady();
    if (local) return local.decideRelevance(input);
    const { decision, structure } = (await this.pool.run(
      { method: 'decideAndStructure', key: this.keyOf(input), input },
      'interactive',
    )) as DecidedStructure;
    if (structure) this.structures.set(input, { text: input.text, structure });
    return decision;
  }

  async structure(input: TranscriptInput): Promise<Structure> {
    const decided = this.structures.get(input);
    this.structures.delete(input);
    if (decided && decided.text === input.text) return decided.structure;
    const local = this.untilReady();
    if (local) return local.structure(input);
    return (await this.pool.run({ method: 'structure', key: this.keyOf(input), input }, 'interactive')) as Structure;
  }

  async extractActionItems(input: TranscriptInput, recent: ExistingActionItem[]): Promise<ExtractedActionItem[]> {
    const local = this.untilReady();
    if (local) return local.extractActionItems(input, recent);
    const task = { method: 'extractActionItems' as const, key: this.keyOf(input), input, recent };
    return (await this.pool.run(task, 'background')) as ExtractedActionItem[];
  }

  async extractMemories(
    input: TranscriptInput,
    existing: ReadonlyArray<{ content: string }>,
  ): Promise<ExtractedMemory[]> {
    const local = this.untilReady();
    if (local) return local.extractMemories(input, existing);
    const task = { method: 'extractMemories' as const, key: this.keyOf(input), input, existing };
    return (await this.pool.run(task, 'background')) as ExtractedMemory[];
  }

  /** The in-process engine while no thread is ready (the threads are started if they were not). */
  private untilReady(): LocalEngine | null {
    if (this.pool.ready) return null;
    this.pool.start();
    this.inProcess ??= new LocalEngine();
    return this.inProcess;
  }

  /** Equal inputs get equal keys: a conversation's extraction finds the thread that parsed it for its create. */
  private keyOf(input: TranscriptInput): string {
    let key = this.keys.get(input);
    if (key === undefined) {
      key = createHash('sha1').update(JSON.stringify(input)).digest('base64');
      this.keys.set(input, key);
    }
    return key;
  }
}
