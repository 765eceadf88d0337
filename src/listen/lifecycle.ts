import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { ListenTimings, RecordingSessionMode } from '../config.js';
import type { Clock } from '../context-types.js';
import type { JobTable } from '../jobs/table-queue.js';
import { FINALIZE_JOB } from '../store/repositories/finalization.js';
import type { LiveConversationRow, LiveConversationsRepository } from '../store/repositories/live-conversations.js';
import type { LifecycleRecord, RecordingSessionsRepository } from '../store/repositories/recording-sessions.js';
import type { Database } from '../store/schema.js';
import { type Envelope, envelopeOf, legacyEnvelope, trustsDurableStore } from './events.js';

export interface OpenRequest {
  recordingSessionId: string;
  language: string;
  source: string;
  /** The stream carried a user key (X-BYOK-*): its conversations need one to be processed. */
  byok: boolean;
}

export type OpenResult =
  | { kind: 'live'; envelope: Envelope; conversation: LiveConversationRow; resumed: boolean; nextSeq: number }
  /** The id is bound to a conversation past in_progress: report it, then roll over (SPEC §2.5 rule 3). */
  | { kind: 'closed'; envelope: Envelope; conversation: LiveConversationRow }
  /** The bound conversation is gone; the session was tombstoned. */
  | { kind: 'gone' };

export type FinalizeResult =
  | { kind: 'queued'; jobId: string; envelope: Envelope | null; blocked: boolean }
  | { kind: 'empty' }
  | { kind: 'noop' };

/** A conversation handed to processing by recovery (no socket of its own saw the handoff). */
export interface Handoff {
  userId: string;
  conversationId: string;
  envelope: Envelope;
}

export interface LifecycleDeps {
  /** Told of every recovery handoff (the module publishes memory_processing_started on the bus). */
  onHandoff?: (handoff: Handoff) => Promise<void>;
  live: LiveConversationsRepository;
  sessions: RecordingSessionsRepository;
  jobs: JobTable;
  clock: Clock;
  log: Logger;
  mode: RecordingSessionMode;
  timings: ListenTimings;
}

/** SPEC §2.5, §3.1, §3.2: recording-session bindings, the processing handoff and stale recovery. */
export class LifecycleService {
  constructor(private readonly deps: LifecycleDeps) {}

  /** Creates or resumes the binding of a recording session id (SPEC §2.5, §9 modes). */
  async open(userId: string, request: OpenRequest): Promise<OpenResult> {
    try {
      return await this.deps.live.transaction((tx) => this.openDurable(userId, request, tx));
    } catch (err) {
      // SPEC §9: enforce rejects durable-store failures; the other modes fall back to the legacy route.
      if (this.deps.mode === 'enforce') throw err;
      this.deps.log.warn({ err, userId }, 'recording session store failed; using the legacy route');
      return this.deps.live.transaction((tx) => this.openLegacy(userId, request, tx));
    }
  }

  private async openDurable(userId: string, request: OpenRequest, tx: Transaction<Database>): Promise<OpenResult> {
    const now = this.deps.clock.now();
    const rsid = request.recordingSessionId;
    let legacy = await this.deps.live.findByRecordingId(userId, rsid, tx);
    const existing = await this.deps.sessions.get(userId, rsid, tx);
    if (!legacy && !existing) legacy = await this.createConversation(userId, request, now, tx);
    const proposed = legacy?.id ?? existing?.conversation_id ?? '';
    const { row } = await this.deps.sessions.createOrGet(
      userId,
      rsid,
      proposed,
      now,
      now + this.deps.timings.sessionLeaseMs,
      tx,
    );
    const conflict = legacy !== undefined && legacy.id !== row.conversation_id;
    if (conflict)
      this.deps.log.warn(
        { userId, recordingSessionId: rsid },
        'recording session binding differs from the legacy pointer',
      );
    // SPEC §9: enforce routes to the canonical binding; dual_write and shadow keep the legacy route.
    const routeId = this.deps.mode === 'enforce' || !legacy ? row.conversation_id : legacy.id;
    const conversation = routeId === legacy?.id ? legacy : await this.deps.live.find(userId, routeId, tx);
    const current: LifecycleRecord = {
      recordingSessionId: rsid,
      conversationId: routeId,
      phase: row.lifecycle_phase,
      sequence: row.lifecycle_sequence,
      accepted: true,
      rejection: null,
    };
    // On a conflict only enforce (which routed to the canonical binding) can vouch for the envelope.
    const envelope = envelopeOf(
      current,
      trustsDurableStore(this.deps.mode) && (this.deps.mode === 'enforce' || !conflict),
    );
    if (!conversation) {
      await this.deps.sessions.recordPhase(userId, rsid, row.conversation_id, 'discarded', now, tx);
      return { kind: 'gone' };
    }
    if (conversation.status !== 'in_progress' || conversation.discarded === 1)
      return { kind: 'closed', envelope, conversation };
    await this.deps.sessions.renewLeases(userId, [rsid], now + this.deps.timings.sessionLeaseMs, tx);
    const { nextSeq } = await this.deps.live.segmentCount(userId, conversation.id, tx);
    return { kind: 'live', envelope, conversation, resumed: existing !== undefined, nextSeq };
  }

  private async openLegacy(userId: string, request: OpenRequest, tx: Transaction<Database>): Promise<OpenResult> {
    const now = this.deps.clock.now();
    const conversation =
      (await this.deps.live.findByRecordingId(userId, request.recordingSessionId, tx)) ??
      (await this.createConversation(userId, request, now, tx));
    const envelope = legacyEnvelope(request.recordingSessionId, conversation.id);
    if (conversation.status !== 'in_progress' || conversation.discarded === 1)
      return { kind: 'closed', envelope, conversation };
    const { nextSeq } = await this.deps.live.segmentCount(userId, conversation.id, tx);
    return { kind: 'live', envelope, conversation, resumed: nextSeq > 0, nextSeq };
  }

  private async createConversation(
    userId: string,
    request: OpenRequest,
    now: number,
    tx: Transaction<Database>,
  ): Promise<LiveConversationRow> {
    const row: LiveConversationRow = {
      id: randomUUID(),
      user_id: userId,
      created_at: now,
      updated_at: now,
      started_at: now,
      finished_at: now,
      status: 'in_progress',
      discarded: 0,
      starred: 0,
      folder_id: null,
      title: '',
      overview: '',
      category: 'other',
      emoji: '🧠',
      language: request.language,
      source: request.source,
      text_source: null,
      text_source_spec: null,
      text: null,
      geolocation: null,
      relevance: null,
      // Replaced by the pipeline's own record once processed; until then it marks BYOK conversations.
      processing: request.byok ? JSON.stringify({ requires_byok: true }) : null,
      app_id: null,
      client_session_id: request.recordingSessionId,
      revision: 0,
    };
    await this.deps.live.create(row, tx);
    return row;
  }

  /**
   * SPEC §3.1/§3.2: moves an in_progress conversation with content to processing and creates its
   * finalization job in the same transaction; an empty one is deleted and its session discarded.
   */
  async finalize(
    userId: string,
    conversationId: string,
    options: { byokPresent?: boolean } = {},
  ): Promise<FinalizeResult> {
    return this.deps.live.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const conversation = await this.deps.live.find(userId, conversationId, tx);
      const session = await this.deps.sessions.forConversation(userId, conversationId, tx);
      if (!conversation) {
        if (session) await this.deps.sessions.recordPhase(userId, session.id, conversationId, 'discarded', now, tx);
        return { kind: 'noop' };
      }
      if (conversation.status !== 'in_progress' || conversation.discarded === 1) return { kind: 'noop' };
      if (await this.deps.live.deleteIfEmpty(userId, conversationId, tx)) {
        if (session) await this.deps.sessions.recordPhase(userId, session.id, conversationId, 'discarded', now, tx);
        return { kind: 'empty' };
      }
      const revision = conversation.revision + 1;
      if (!(await this.deps.live.markProcessing(userId, conversationId, revision, now, tx))) return { kind: 'noop' };
      // SPEC §3.2: a conversation that needs the user's own key waits in blocked_byok without one.
      const blocked = requiresByok(conversation) && options.byokPresent !== true;
      const jobId = await this.deps.jobs.enqueue(
        {
          id: randomUUID(),
          kind: FINALIZE_JOB,
          userId,
          // SPEC §3.2: ids only, never transcript text, keys or headers.
          payload: { conversation_id: conversationId, revision },
          idempotencyKey: finalizationKey(userId, conversationId, revision),
          maxAttempts: this.deps.timings.finalizationMaxAttempts,
          runAt: now,
          status: blocked ? 'blocked_byok' : 'queued',
        },
        now,
        tx,
      );
      const record = session
        ? await this.deps.sessions.recordPhase(userId, session.id, conversationId, 'processing', now, tx)
        : null;
      return {
        kind: 'queued',
        jobId,
        blocked,
        envelope: record ? envelopeOf(record, trustsDurableStore(this.deps.mode)) : null,
      };
    });
  }

  /** SPEC §3.1: conversations of this user whose socket is gone are picked up by the next session. */
  async finalizeStale(userId: string, except: ReadonlySet<string>): Promise<string[]> {
    const stale = await this.deps.sessions.staleForUser(userId, this.deps.clock.now());
    const queued: string[] = [];
    for (const session of stale) {
      if (except.has(session.id)) continue;
      const result = await this.finalize(userId, session.conversation_id);
      await this.recovered(userId, session.id, session.conversation_id, result, queued);
    }
    return queued;
  }

  /** After a recovery finalize: announce a handoff, or let a session that missed one catch up. */
  private async recovered(
    userId: string,
    recordingSessionId: string,
    conversationId: string,
    result: FinalizeResult,
    queued: string[],
  ): Promise<void> {
    if (result.kind === 'noop') return this.settle(userId, recordingSessionId, conversationId);
    if (result.kind !== 'queued') return;
    if (!result.blocked) queued.push(result.jobId);
    const envelope = result.envelope ?? legacyEnvelope(recordingSessionId, conversationId);
    await this.deps.onHandoff?.({ userId, conversationId, envelope }).catch((err) => {
      this.deps.log.warn({ err, userId, conversationId }, 'handoff announcement failed');
    });
  }

  /**
   * Startup and periodic recovery on any node: in_progress sessions whose lease expired and whose
   * conversation has been silent for the minimum conversation timeout are finalized.
   */
  async sweep(limit = 50): Promise<string[]> {
    const now = this.deps.clock.now();
    const queued: string[] = [];
    for (const { user_id: userId, id } of await this.deps.sessions.staleAcrossUsers(now, limit)) {
      const session = await this.deps.sessions.get(userId, id);
      if (!session) continue;
      const conversation = await this.deps.live.find(userId, session.conversation_id);
      const idleSince = conversation?.finished_at ?? conversation?.created_at ?? 0;
      if (conversation?.status === 'in_progress' && now - idleSince < this.deps.timings.minConversationTimeoutMs)
        continue;
      const result = await this.finalize(userId, session.conversation_id);
      await this.recovered(userId, id, session.conversation_id, result, queued);
    }
    return queued;
  }

  /** A session left in_progress while its conversation moved on (e.g. a crash mid-handoff) catches up. */
  private async settle(userId: string, recordingSessionId: string, conversationId: string): Promise<void> {
    const conversation = await this.deps.live.find(userId, conversationId);
    const now = this.deps.clock.now();
    const phase = !conversation ? 'discarded' : conversation.status === 'in_progress' ? null : 'processing';
    if (phase) await this.deps.sessions.recordPhase(userId, recordingSessionId, conversationId, phase, now);
  }

  async renewLease(userId: string, recordingSessionIds: readonly string[], until?: number): Promise<void> {
    await this.deps.sessions.renewLeases(
      userId,
      recordingSessionIds,
      until ?? this.deps.clock.now() + this.deps.timings.sessionLeaseMs,
    );
  }

  /** Marks the session's socket gone now, so the next session may pick its conversation up. */
  async releaseLease(userId: string, recordingSessionId: string): Promise<void> {
    await this.deps.sessions.renewLeases(userId, [recordingSessionId], this.deps.clock.now() - 1);
  }
}

function requiresByok(conversation: LiveConversationRow): boolean {
  return conversation.processing?.includes('"requires_byok":true') === true;
}

/** research/omi-listen.md §2.6: one job per (user, conversation, finalization revision). */
export function finalizationKey(userId: string, conversationId: string, revision: number): string {
  return `listen-finalization:${userId}:${conversationId}:${revision}`;
}
