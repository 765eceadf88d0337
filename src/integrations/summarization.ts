import { randomUUID } from 'node:crypto';
import type { Clock } from '../context-types.js';
import { appConfigOf } from '../domain/apps/model.js';
import { type AppsService, isSummarizer } from '../domain/apps/service.js';
import type { ConversationsService } from '../domain/conversations/service.js';
import { PermanentJobError } from '../jobs/runner.js';
import type { JobRow, JobTable, NewJob } from '../jobs/table-queue.js';
import type { TextGenerator } from '../providers/llm/index.js';
import type { AppRow } from '../store/repositories/apps.js';
import type { ConversationAppResultsRepository } from '../store/repositories/conversation-app-results.js';
import type { ConversationRow, ConversationsRepository } from '../store/repositories/conversations.js';

export const SUMMARIZE_JOB = 'app.summarize';

// Three tries with the job table's backoff (1 s, 2 s) before a run is recorded as failed.
const MAX_ATTEMPTS = 3;
// Long recordings are cut so the prompt stays within a small model's context.
const TRANSCRIPT_MAX_CHARS = 60_000;

export interface SummarizationDeps {
  apps: AppsService;
  results: ConversationAppResultsRepository;
  conversations: ConversationsRepository;
  conversationsService: ConversationsService;
  jobs: JobTable;
  clock: Clock;
  /** null without LLM_BASE_URL: runs are then recorded as skipped, never faked. */
  generator: TextGenerator | null;
  wakeWorkers: () => void;
}

type Outcome =
  | { status: 'completed'; content: string }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; reason: string; error: unknown };

/**
 * Summarization apps (SPEC §1: "triggers enabled summarization apps"; research/omi-listen.md §3.6):
 * after a conversation's extraction, every app the user enabled that has the `memories` capability
 * and a prompt gets one durable job; its result is stored per conversation and app.
 */
export class SummarizationApps {
  constructor(private readonly deps: SummarizationDeps) {}

  /** After-processing hook: queue one job per summarization app and drop results of older revisions. */
  async onConversationProcessed(userId: string, conversationId: string): Promise<void> {
    const row = await this.deps.conversations.findById(userId, conversationId);
    if (!row || row.discarded === 1) return;
    const apps = await this.deps.apps.summarizationApps(userId);
    const now = this.deps.clock.now();
    await this.deps.conversations.transaction(async (tx) => {
      await this.deps.results.deleteOlderThan(userId, conversationId, row.revision, tx);
      for (const app of apps) await this.deps.jobs.enqueue(this.job(userId, row, app.id, now), now, tx);
    });
    if (apps.length > 0) this.deps.wakeWorkers();
  }

  /** Job handler: ask the LLM with the app's prompt and store what came back. */
  async run(job: JobRow): Promise<void> {
    const { conversationId, revision, appId } = summarizePayload(job.payload);
    const userId = job.user_id;
    const row = await this.deps.conversations.findById(userId, conversationId);
    // A newer revision has its own jobs; a discarded or deleted conversation needs none.
    if (!row || row.revision !== revision || row.discarded === 1) return;
    const found = (await this.deps.apps.findManyForUser(userId, [appId])).get(appId);
    // The user disabled the app, or its owner deleted it or dropped the prompt, since the job was queued.
    if (!found?.enabled || found.app.deleted_at !== null || !isSummarizer(found.app)) return;
    const outcome = await this.outcome(job, row, found.app);
    await this.deps.results.upsert({
      conversation_id: conversationId,
      user_id: userId,
      app_id: appId,
      status: outcome.status,
      content: outcome.status === 'completed' ? outcome.content : '',
      reason: outcome.status === 'completed' ? null : outcome.reason,
      revision,
      created_at: this.deps.clock.now(),
    });
    // The job itself ends in dead_letter too, so operators see the failure where they see other jobs'.
    if (outcome.status === 'failed') throw outcome.error;
  }

  /** The run's outcome; an LLM error is rethrown for the job table's retry, and returned on the last attempt. */
  private async outcome(job: JobRow, row: ConversationRow, app: AppRow): Promise<Outcome> {
    const { generator } = this.deps;
    if (!generator) return { status: 'skipped', reason: 'llm_not_configured' };
    const prompt = await this.render(row, app);
    try {
      const content = (await generator.generateText(prompt)).trim();
      return content === '' ? { status: 'skipped', reason: 'empty_reply' } : { status: 'completed', content };
    } catch (err) {
      if (job.attempts < job.max_attempts) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      return { status: 'failed', reason: reason.slice(0, 500), error: err };
    }
  }

  /** The app's prompt followed by the conversation's structured summary and its transcript. */
  private async render(row: ConversationRow, app: AppRow): Promise<string> {
    const config = appConfigOf(app);
    const view = await this.deps.conversationsService.get(row.user_id, row.id, true);
    const { structured } = view;
    const lines = (view.transcript_segments ?? []).map((s) => `${s.speaker_name}: ${s.text}`);
    const transcript = (lines.length > 0 ? lines.join('\n') : (row.text ?? '')).slice(0, TRANSCRIPT_MAX_CHARS);
    const items = structured.action_items.map((item) => `- ${item.description}`);
    return [
      `You are "${config.name}", an app that works on a person's recorded conversations.`,
      ...(config.description ? [`About the app: ${config.description}`] : []),
      '',
      'Your task:',
      config.memoryPrompt ?? '',
      '',
      'If the conversation has nothing to do with your task, reply with nothing at all.',
      'Reply in plain text without markdown, briefly and clearly.',
      '',
      'Conversation summary:',
      `Title: ${structured.title}`,
      `Overview: ${structured.overview}`,
      `Category: ${structured.category}`,
      ...(items.length > 0 ? ['Action items:', ...items] : []),
      '',
      'Transcript:',
      '"""',
      transcript,
      '"""',
    ].join('\n');
  }

  /** One job per conversation revision and app; the payload holds ids only (SPEC §3.2). */
  private job(userId: string, row: ConversationRow, appId: string, now: number): NewJob {
    return {
      id: randomUUID(),
      kind: SUMMARIZE_JOB,
      userId,
      payload: { conversation_id: row.id, revision: row.revision, app_id: appId },
      idempotencyKey: `${SUMMARIZE_JOB}:${userId}:${row.id}:${row.revision}:${appId}`,
      maxAttempts: MAX_ATTEMPTS,
      runAt: now,
    };
  }
}

function summarizePayload(payload: string): { conversationId: string; revision: number; appId: string } {
  const parsed: unknown = JSON.parse(payload);
  if (typeof parsed === 'object' && parsed !== null) {
    const { conversation_id: conversationId, revision, app_id: appId } = parsed as Record<string, unknown>;
    if (typeof conversationId === 'string' && typeof revision === 'number' && typeof appId === 'string') {
      return { conversationId, revision, appId };
    }
  }
  throw new PermanentJobError('malformed summarization job payload');
}
