import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import './listen-tables.js';
import type { RecordingSessionsTable } from './listen-tables.js';
import type { Db } from './shared.js';

export type RecordingSessionRow = Selectable<RecordingSessionsTable>;
export type LifecyclePhase = 'in_progress' | 'processing' | 'completed' | 'failed' | 'discarded';

// research/omi-listen.md §2.2: in_progress < processing < {completed, failed, discarded}.
const PHASE_ORDER: Record<LifecyclePhase, number> = {
  in_progress: 0,
  processing: 1,
  completed: 2,
  failed: 2,
  discarded: 2,
};
export const TERMINAL_PHASES: readonly LifecyclePhase[] = ['completed', 'failed', 'discarded'];

export function isTerminalPhase(phase: string): boolean {
  return (TERMINAL_PHASES as readonly string[]).includes(phase);
}

export type LifecycleRejection = 'missing_session' | 'mapping_conflict' | 'terminal_immutable' | 'stale_event';

export interface LifecycleRecord {
  recordingSessionId: string;
  conversationId: string;
  phase: string;
  sequence: number;
  accepted: boolean;
  rejection: LifecycleRejection | null;
}

/**
 * Durable recording sessions (SPEC §2.5): ids, phase, sequence, schema version and timestamps only;
 * never transcript content, credentials or socket payloads.
 */
export class RecordingSessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(userId: string, id: string, tx: Db = this.db): Promise<RecordingSessionRow | undefined> {
    return tx
      .selectFrom('recording_sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Creates the binding unless the id exists; returns the stored row either way (first writer wins). */
  async createOrGet(
    userId: string,
    id: string,
    conversationId: string,
    now: number,
    leaseUntil: number,
    tx: Db = this.db,
  ): Promise<{ row: RecordingSessionRow; created: boolean }> {
    const result = await tx
      .insertInto('recording_sessions')
      .values({
        user_id: userId,
        id,
        conversation_id: conversationId,
        schema_version: 1,
        lifecycle_version: 1,
        lifecycle_phase: 'in_progress',
        lifecycle_sequence: 0,
        lease_expires_at: leaseUntil,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
      .executeTakeFirst();
    const row = await this.get(userId, id, tx);
    if (!row) throw new Error('recording session vanished after insert');
    return { row, created: Number(result.numInsertedOrUpdatedRows ?? 0n) > 0 };
  }

  /** research/omi-listen.md §2.2 rules: monotonic phases, idempotent replays, terminal phases immutable. */
  async recordPhase(
    userId: string,
    id: string,
    conversationId: string,
    phase: LifecyclePhase,
    now: number,
    tx: Db = this.db,
  ): Promise<LifecycleRecord> {
    const row = await this.get(userId, id, tx);
    const base = { recordingSessionId: id, conversationId };
    if (!row) return { ...base, phase, sequence: 0, accepted: false, rejection: 'missing_session' };
    const current = {
      ...base,
      conversationId: row.conversation_id,
      phase: row.lifecycle_phase,
      sequence: row.lifecycle_sequence,
    };
    if (row.conversation_id !== conversationId) return { ...current, accepted: false, rejection: 'mapping_conflict' };
    if (isTerminalPhase(row.lifecycle_phase) && row.lifecycle_phase !== phase) {
      return { ...current, accepted: false, rejection: 'terminal_immutable' };
    }
    const currentOrder = PHASE_ORDER[row.lifecycle_phase as LifecyclePhase] ?? 0;
    if (PHASE_ORDER[phase] < currentOrder) return { ...current, accepted: false, rejection: 'stale_event' };
    if (row.lifecycle_phase === phase) return { ...current, accepted: true, rejection: null };
    const sequence = row.lifecycle_sequence + 1;
    await tx
      .updateTable('recording_sessions')
      .set({ lifecycle_phase: phase, lifecycle_sequence: sequence, updated_at: now })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .where('lifecycle_sequence', '=', row.lifecycle_sequence)
      .execute();
    return { ...current, phase, sequence, accepted: true, rejection: null };
  }

  async renewLeases(userId: string, ids: readonly string[], until: number, tx: Db = this.db): Promise<void> {
    if (ids.length === 0) return;
    await tx
      .updateTable('recording_sessions')
      .set({ lease_expires_at: until })
      .where('user_id', '=', userId)
      .where('id', 'in', [...ids])
      .execute();
  }

  /** Sessions of this user still in_progress whose socket is gone (lease expired or released). */
  async staleForUser(userId: string, now: number): Promise<RecordingSessionRow[]> {
    return this.db
      .selectFrom('recording_sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('lifecycle_phase', '=', 'in_progress')
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .orderBy('created_at')
      .limit(100)
      .execute();
  }

  /**
   * Cross-user by design, like a job claim: the recovery sweep finds in_progress sessions whose
   * socket is gone on any node. It returns ids only; every later step is scoped to the row's user.
   */
  async staleAcrossUsers(now: number, limit: number): Promise<Array<{ user_id: string; id: string }>> {
    return this.db
      .selectFrom('recording_sessions')
      .select(['user_id', 'id'])
      .where('lifecycle_phase', '=', 'in_progress')
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .orderBy('updated_at')
      .limit(limit)
      .execute();
  }

  async forConversation(
    userId: string,
    conversationId: string,
    tx: Db = this.db,
  ): Promise<RecordingSessionRow | undefined> {
    return tx
      .selectFrom('recording_sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('conversation_id', '=', conversationId)
      .orderBy('created_at')
      .executeTakeFirst();
  }
}
