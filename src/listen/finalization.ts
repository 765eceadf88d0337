import type { Logger } from 'pino';
import type { RecordingSessionMode } from '../config.js';
import type { Clock } from '../context-types.js';
import type { ConversationsService } from '../domain/conversations/service.js';
import { type JobRunner, PermanentJobError } from '../jobs/runner.js';
import type { JobRow, JobTable } from '../jobs/table-queue.js';
import { EXTRACT_JOB, type ProcessingPipeline } from '../processing/pipeline.js';
import { type EventBus, userChannel } from '../providers/bus/index.js';
import type { FinalizationRepository } from '../store/repositories/finalization.js';
import type { LiveConversationRow, LiveConversationsRepository } from '../store/repositories/live-conversations.js';
import type { RecordingSessionsRepository } from '../store/repositories/recording-sessions.js';
import { envelopeOf, memoryEvent, trustsDurableStore } from './events.js';

/** What a fanout hook receives; `idempotencyKey` is the persistent fanout key, unchanged on retries. */
export interface FinalizerDeps {
  jobs: JobTable;
  finalization: FinalizationRepository;
  sessions: RecordingSessionsRepository;
  live: LiveConversationsRepository;
  pipeline: ProcessingPipeline;
  conversations: ConversationsService;
  /** The runner of the pipeline's own jobs: the extraction job is run (or awaited) through it. */
  pipelineRunner: JobRunner;
  bus: EventBus;
  clock: Clock;
  log: Logger;
  mode: RecordingSessionMode;
}

const EXTRACTION_WAIT_MS = 30_000;

/**
 * The finalization job handler (SPEC §3.2): process → extract → claim the fanout with its
 * persistent key → side effects → record the fanout completed. A re-run after a crash repeats
 * processing harmlessly (keyed by revision) and never repeats a completed fanout.
 */
export class Finalizer {
  constructor(private readonly deps: FinalizerDeps) {}

  async run(job: JobRow): Promise<void> {
    const { conversationId, revision } = parsePayload(job.payload);
    const userId = job.user_id;
    try {
      let conversation = await this.current(userId, conversationId, revision);
      if (!conversation) return; // superseded or deleted: fenced, nothing to fan out
      if (conversation.status === 'processing')
        await this.deps.pipeline.runProcessJob(userId, conversationId, revision, false);
      await this.runExtraction(userId, conversationId, revision);
      conversation = await this.current(userId, conversationId, revision);
      if (!conversation) return;
      if (conversation.status !== 'completed')
        throw new Error(`conversation is ${conversation.status} after processing`);
      await this.fanout(job, conversation, revision);
    } catch (err) {
      if (err instanceof PermanentJobError || job.attempts >= job.max_attempts)
        await this.deadLetter(userId, conversationId, revision);
      throw err;
    }
  }

  private async current(
    userId: string,
    conversationId: string,
    revision: number,
  ): Promise<LiveConversationRow | undefined> {
    const conversation = await this.deps.live.find(userId, conversationId);
    return conversation && conversation.revision === revision ? conversation : undefined;
  }

  /** Runs the pipeline's extraction job here unless another worker holds it, then waits for it. */
  private async runExtraction(userId: string, conversationId: string, revision: number): Promise<void> {
    const job = await this.deps.jobs.findByKey(`${EXTRACT_JOB}:${userId}:${conversationId}:${revision}`);
    if (!job) return; // discarded conversations have no extraction
    if (await this.deps.pipelineRunner.runOne(job.id)) return;
    const deadline = Date.now() + EXTRACTION_WAIT_MS;
    while (Date.now() < deadline) {
      const row = await this.deps.jobs.findById(job.id);
      if (!row || row.status === 'completed' || row.status === 'dead_letter') return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('extraction still running elsewhere');
  }

  private async fanout(job: JobRow, conversation: LiveConversationRow, revision: number): Promise<void> {
    const userId = job.user_id;
    const fanoutKey = `conversation:${conversation.id}:finalization:${revision}`;
    const claim = await this.deps.finalization.claimFanout(
      userId,
      { fanoutKey, jobId: job.id, conversationId: conversation.id, revision },
      this.deps.clock.now(),
    );
    if (claim === 'done') return;
    const discarded = conversation.discarded === 1;
    const session = await this.deps.sessions.forConversation(userId, conversation.id);
    if (session) {
      const phase = discarded ? 'discarded' : 'completed';
      const record = await this.deps.sessions.recordPhase(
        userId,
        session.id,
        conversation.id,
        phase,
        this.deps.clock.now(),
      );
      const memory = await this.deps.conversations.get(userId, conversation.id, true);
      const envelope = envelopeOf(record, trustsDurableStore(this.deps.mode));
      await this.deps.bus.publish(userChannel(userId), memoryEvent('memory_created', envelope, memory));
    }
    await this.deps.finalization.completeFanout(userId, fanoutKey, this.deps.clock.now());
  }

  private async deadLetter(userId: string, conversationId: string, revision: number): Promise<void> {
    const now = this.deps.clock.now();
    if (!(await this.deps.live.markFailed(userId, conversationId, revision, now))) return;
    const session = await this.deps.sessions.forConversation(userId, conversationId);
    if (session) await this.deps.sessions.recordPhase(userId, session.id, conversationId, 'failed', now);
    this.deps.log.warn({ userId, conversationId, revision }, 'finalization dead-lettered; conversation marked failed');
  }
}

export function parsePayload(payload: string): { conversationId: string; revision: number } {
  const parsed: unknown = JSON.parse(payload);
  if (typeof parsed === 'object' && parsed !== null) {
    const { conversation_id: conversationId, revision } = parsed as Record<string, unknown>;
    if (typeof conversationId === 'string' && typeof revision === 'number') return { conversationId, revision };
  }
  throw new PermanentJobError('malformed finalization job payload');
}
