import type { Logger } from 'pino';
import type { BusEvent } from '../providers/bus/index.js';
import type { SttFailure } from '../providers/stt/port.js';
import type { SegmentFrame, ServiceStatus } from './events.js';
import type { ListenModule, SessionPlugin, SessionPluginFactory, SessionPluginHost } from './module.js';
import type { CurrentConversation } from './transcripts.js';

/** Intervals that start at a random phase, so many sessions' ticks (and their reads) do not bunch up. */
export class PhasedTimers {
  private readonly timers: NodeJS.Timeout[] = [];

  every(ms: number, fn: () => void): void {
    const phase = setTimeout(
      () => {
        const timer = setInterval(fn, ms);
        timer.unref();
        this.timers.push(timer);
      },
      Math.floor(Math.random() * ms),
    );
    phase.unref();
    this.timers.push(phase);
  }

  clear(): void {
    for (const timer of this.timers.splice(0)) clearTimeout(timer);
  }
}

/**
 * Which events of the user's bus channel a socket forwards: notifications always; lifecycle events
 * only for a recording session this socket owns (DESIGN §4: they go to the recording session).
 */
export function forwardsEvent(event: BusEvent, owned: ReadonlySet<string>): boolean {
  if (event.type === 'notification') return true;
  if (event.type !== 'memory_created' && event.type !== 'memory_processing_started') return false;
  return typeof event.recording_session_id === 'string' && owned.has(event.recording_session_id);
}

/** SPEC §7.4: the service_status sent before a 1011 close. */
export function sttFailedStatus(failure: SttFailure) {
  return {
    status: 'stt_failed',
    status_text: 'Transcription service unavailable',
    outcome: failure.outcome,
    provider: failure.provider,
    retryable: failure.retryable,
    reason: failure.reason,
  };
}

/**
 * Run when a session starts: a live request carrying a user key releases this user's blocked_byok
 * jobs (SPEC §3.2, inline dispatch only), and conversations left in progress by sessions that are
 * gone are handed to processing (SPEC §3.1).
 */
export async function recoverUserConversations(
  m: ListenModule,
  userId: string,
  owned: ReadonlySet<string>,
  byok: boolean,
): Promise<void> {
  const jobs: string[] = [];
  if (byok && m.dispatcher.mode === 'inline') jobs.push(...(await m.finalization.unblockByok(userId, m.clock.now())));
  jobs.push(...(await m.lifecycle.finalizeStale(userId, owned)));
  for (const jobId of jobs) await m.dispatcher.dispatch(jobId, false);
}

/** The service_status frames after the provider was opened (DESIGN §6: no provider still runs). */
export function sttStatuses(
  stt: { provider: string | null; unavailable: string | null },
  failed: boolean,
): ServiceStatus[] {
  const statuses: ServiceStatus[] = [];
  if (stt.unavailable) {
    statuses.push({
      status: 'stt_unavailable',
      status_text: 'Audio is accepted but not transcribed',
      reason: stt.unavailable,
    });
  }
  if (!failed) statuses.push({ status: 'ready', status_text: 'Ready', provider: stt.provider });
  return statuses;
}

/** Waits for `work`, at most `ms` (SPEC §8: the 30 s drain before a forced cancel). */
export async function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([work, limit]);
  clearTimeout(timer);
}

/** A session's plugins (speaker identification, audio capture); a failing plugin never breaks the stream. */
export class PluginSet {
  private readonly plugins: SessionPlugin[];

  constructor(
    factories: readonly SessionPluginFactory[],
    private readonly log: Logger,
    host: SessionPluginHost,
  ) {
    this.plugins = factories.flatMap((factory) => factory(host) ?? []);
  }

  get wantsAudio(): boolean {
    return this.plugins.some((plugin) => plugin.onAudio);
  }

  notify(call: (plugin: SessionPlugin) => void): void {
    for (const plugin of this.plugins) {
      try {
        call(plugin);
      } catch (err) {
        this.log.warn({ err }, 'session plugin failed');
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all(
      this.plugins.map((plugin) =>
        plugin.close?.().catch((err) => this.log.warn({ err }, 'session plugin close failed')),
      ),
    );
  }
}

/** A stored transcript batch goes to the session plugins (with where it sits) and the batch hooks. */
export function announceBatch(
  m: ListenModule,
  plugins: PluginSet,
  userId: string,
  current: CurrentConversation | null,
  frames: SegmentFrame[],
  origin: number,
): void {
  if (current?.startedAt != null) {
    const placement = { conversationId: current.conversationId, startedAt: current.startedAt, origin };
    plugins.notify((p) => p.onTranscript?.(frames, placement));
  }
  const recordingSessionId = current?.recordingSessionId ?? '';
  for (const hook of m.onTranscriptBatch) {
    hook(userId, recordingSessionId, frames).catch((err) =>
      m.log.warn({ err, userId }, 'transcript batch hook failed'),
    );
  }
}

/** The client sees only the reason code; the operator's log says what is wrong (e.g. the model dir). */
export function logSttFailure(m: ListenModule, userId: string, failure: SttFailure): void {
  m.log.warn(
    { userId, provider: failure.provider, reason: failure.reason, outcome: failure.outcome },
    `speech-to-text failed: ${failure.message}`,
  );
  m.onSttFailure(failure);
}
