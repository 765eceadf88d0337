import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { TranscriptInput } from '../engine.js';
import type { EngineReply, EngineResult, EngineTask } from './engine-tasks.js';
import { LocalEngine } from './index.js';

/**
 * A worker thread of the engine pool (engine-pool.ts): runs one local-engine task per message. It keeps
 * the last inputs it parsed by content key, so the steps of one conversation that reach the same thread
 * (relevance and structure, then action items and memories) share one parse.
 */

const RECENT_INPUTS = 64;

const port = parentPort;
if (!port) throw new Error('engine-worker.ts runs as a worker thread');
// On Linux the nice value is per thread: engine work yields the cores to the thread serving requests.
if (process.platform === 'linux') setPriority(10);
const engine = new LocalEngine();
const recent = new Map<string, TranscriptInput>();

/** The input object this thread already parsed for `key`, so the engine's per-input cache applies. */
function remembered(key: string, input: TranscriptInput): TranscriptInput {
  const known = recent.get(key);
  recent.delete(key);
  recent.set(key, known ?? input);
  if (recent.size > RECENT_INPUTS) recent.delete(recent.keys().next().value ?? '');
  return known ?? input;
}

async function run(task: EngineTask): Promise<EngineResult> {
  const input = remembered(task.key, task.input);
  switch (task.method) {
    case 'decideAndStructure': {
      const decision = await engine.decideRelevance(input);
      return { decision, structure: decision.verdict === 'discard' ? null : await engine.structure(input) };
    }
    case 'structure':
      return engine.structure(input);
    case 'extractActionItems':
      return engine.extractActionItems(input, task.recent);
    case 'extractMemories':
      return engine.extractMemories(input, task.existing);
  }
}

port.on('message', (task: EngineTask) => {
  run(task).then(
    (result) => port.postMessage({ id: task.id, result } satisfies EngineReply),
    (err: unknown) =>
      port.postMessage({ id: task.id, error: err instanceof Error ? err.message : String(err) } satisfies EngineReply),
  );
});
port.postMessage({ ready: true });
