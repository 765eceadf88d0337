import type { Transaction } from 'kysely';
import type { Clock } from '../context-types.js';
import type { ConversationProcessing, ProcessingOutcome } from '../domain/ports.js';
import type { JobRunner } from '../jobs/runner.js';
import type { JobTable } from '../jobs/table-queue.js';
import type { ConversationRow, ConversationsRepository } from '../store/repositories/conversations.js';
import type { Database } from '../store/schema.js';
import type { ProcessingPipeline } from './pipeline.js';

// How long a request waits for a worker that claimed its job first; inline processing answers well inside it.
const WAIT_FOR_WORKER_MS = 10_000;
const WAIT_STEP_MS = 20;

/** The pipeline behind the domain's ConversationProcessing port: one durable job per revision. */
export class QueuedConversationProcessing implements ConversationProcessing {
  constructor(
    private readonly deps: {
      jobs: JobTable;
      runner: JobRunner;
      pipeline: ProcessingPipeline;
      conversations: Pick<ConversationsRepository, 'findById'>;
      clock: Clock;
    },
  ) {}

  enqueue(
    tx: Transaction<Database>,
    conversation: Pick<ConversationRow, 'id' | 'user_id'>,
    revision: number,
    options: { forceKeep?: boolean } = {},
  ): Promise<string> {
    const job = this.deps.pipeline.processJob(conversation.user_id, conversation.id, revision, options.forceKeep);
    return this.deps.jobs.enqueue(job, this.deps.clock.now(), tx);
  }

  async runNow(
    jobId: string,
    conversation: ConversationRow,
    options: { forceKeep?: boolean } = {},
  ): Promise<ProcessingOutcome> {
    let outcome: ProcessingOutcome | null = null;
    const ran = await this.deps.runner.runOne(jobId, async () => {
      outcome = await this.deps.pipeline.process(conversation, options.forceKeep ?? false);
    });
    if (ran && outcome) return outcome;
    if (!ran) await this.waitForWorker(jobId);
    // Another worker ran it, or the job failed and will be retried: the row says where it stands.
    const stored = await this.deps.conversations.findById(conversation.user_id, conversation.id);
    return { status: stored?.status ?? 'processing', discarded: stored?.discarded === 1 };
  }

  wake(): void {
    this.deps.runner.wake();
  }

  private async waitForWorker(jobId: string): Promise<void> {
    for (let waited = 0; waited < WAIT_FOR_WORKER_MS; waited += WAIT_STEP_MS) {
      const job = await this.deps.jobs.findById(jobId);
      if (!job || job.status === 'completed' || job.status === 'dead_letter') return;
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
  }
}
