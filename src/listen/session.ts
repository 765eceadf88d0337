import { randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import { type BusEvent, userChannel } from '../providers/bus/index.js';
import type { SttFailure } from '../providers/stt/port.js';
import { conversationSessionEvent, legacyEnvelope, memoryEvent, serviceStatusEvent } from './events.js';
import type { ListenModule } from './module.js';
import type { ListenParams } from './params.js';
import { parseControlMessage } from './receiver.js';
import { SessionAudio } from './session-audio.js';
import { SessionSocket } from './session-socket.js';
import {
  announceBatch,
  forwardsEvent,
  logSttFailure,
  PhasedTimers,
  PluginSet,
  recoverUserConversations,
  sttFailedStatus,
  sttStatuses,
  withTimeout,
} from './session-support.js';
import { type CurrentConversation, type RawSegment, TranscriptWriter } from './transcripts.js';
import { WorkerLink } from './worker-link.js';

const MAX_BIND_TRIES = 5;

/**
 * One live stream (SPEC §3.1, research/omi-listen.md §1.3–1.10). Every state change (binding,
 * transcript writes, the processing handoff) runs on one serial chain, so a batch never races a
 * rollover; timers only enqueue work.
 */
export class ListenSession {
  private current: CurrentConversation | null = null;
  private readonly owned = new Set<string>();
  private readonly writer: TranscriptWriter;
  private readonly link: WorkerLink;
  private readonly audio: SessionAudio;
  private readonly plugins: PluginSet;
  private buffer: RawSegment[] = [];
  private readonly io: SessionSocket;
  private flushQueued = false;
  private readonly openedAt: number;
  private lastFrameAt: number;
  private lastDataAt: number;
  private lastLeaseAt: number;
  private readonly timers = new PhasedTimers();
  private unsubscribe: (() => void) | null = null;
  private ready = false;
  private early: Array<[Buffer, boolean]> = [];
  private closed: { code: number } | null = null;
  private torn: Promise<void> | null = null;

  constructor(
    socket: WebSocket,
    private readonly userId: string,
    private readonly params: ListenParams,
    private readonly m: ListenModule,
  ) {
    this.io = new SessionSocket(socket, m.log, userId);
    this.openedAt = m.clock.now();
    [this.lastFrameAt, this.lastDataAt, this.lastLeaseAt] = [this.openedAt, this.openedAt, this.openedAt];
    this.writer = new TranscriptWriter(userId, m.live);
    this.link = new WorkerLink(m.dispatcher, m.clock, m.log, m.linkLimits);
    this.plugins = new PluginSet(m.sessionPlugins, m.log, {
      userId,
      params,
      currentConversationId: () => this.current?.conversationId ?? null,
      send: (payload) => this.io.send(payload),
      labelSpeaker: (speakerId, personId) => this.writer.speakerPeople.set(speakerId, personId),
    });
    this.audio = new SessionAudio(params, m.clock, {
      onSegments: (segments) => this.accept(segments),
      onError: (failure) => this.failStt(failure),
      onAudio: this.plugins.wantsAudio
        ? (pcm, channel) => this.plugins.notify((p) => p.onAudio?.(pcm, channel))
        : undefined,
    });
    socket.on('message', (data: Buffer, isBinary: boolean) => this.receive(data, isBinary));
    socket.on('close', (code: number) => {
      this.closed = { code };
      if (this.ready) void this.teardown(code);
    });
    m.active.add(this);
  }

  /** Replays frames that arrived before the session existed (the web route's auth window). */
  preload(frames: Array<[Buffer, boolean]>): void {
    this.early.push(...frames);
  }

  async start(): Promise<void> {
    try {
      this.io.send(serviceStatusEvent({ status: 'initiating', status_text: 'Service Starting' }));
      await this.subscribe();
      await this.io.serial(() => this.bind(true));
      this.io.serial(() => recoverUserConversations(this.m, this.userId, this.owned, this.params.byok));
      this.io.send(serviceStatusEvent({ status: 'stt_initiating', status_text: 'STT Service Starting' }));
      const stt = await this.audio.open(this.m.chooseStt(), this.params.customStt);
      for (const status of sttStatuses(stt, this.audio.failed)) this.io.send(serviceStatusEvent(status));
      this.startTimers();
    } catch (err) {
      this.m.log.error({ err, userId: this.userId }, 'listen session failed to start');
      this.io.close(1011, 'internal error');
    } finally {
      this.ready = true;
      for (const [data, isBinary] of this.early.splice(0)) this.receive(data, isBinary);
      if (this.closed) void this.teardown(this.closed.code);
    }
  }

  /** Server shutdown: close with 1001 and wait for the drain. */
  async shutdown(code: number, reason: string): Promise<void> {
    this.io.close(code, reason);
    await this.teardown(code);
  }

  private receive(data: Buffer, isBinary: boolean): void {
    if (!this.ready) {
      this.early.push([data, isBinary]);
      return;
    }
    const now = this.m.clock.now();
    this.lastFrameAt = now;
    if (isBinary) {
      // research/omi-listen.md §1.5: frames of ≤ 2 bytes count as activity, not audio.
      if (data.length > 2) this.lastDataAt = now;
      this.audio.receive(data);
      return;
    }
    this.lastDataAt = now;
    const message = parseControlMessage(data.toString('utf8'));
    if (message.type === 'suggested_transcript' && this.params.customStt) {
      this.accept(message.segments.map((s) => ({ ...s, sttProvider: message.sttProvider })));
    } else if (message.type === 'speaker_assigned') {
      const target = this.current?.conversationId ?? null;
      this.io.serial(() => this.writer.assignSpeaker(target, message));
      this.plugins.notify((p) => p.onSpeakerAssigned?.(message, target));
    }
  }

  private accept(segments: RawSegment[]): void {
    if (segments.length === 0) return;
    this.buffer.push(...segments);
    if (this.flushQueued) return;
    this.flushQueued = true;
    this.io.serial(() => this.flush());
  }

  /** Persists buffered segments before they are sent (a crash loses at most the in-flight batch). */
  private async flush(): Promise<void> {
    this.flushQueued = false;
    if (this.buffer.length === 0) return;
    if (!this.current) await this.bind(false);
    const batch = this.buffer.splice(0);
    const origin = this.audio.origin ?? this.openedAt;
    let frames = this.current ? await this.writer.write(this.current, batch, origin, this.m.clock.now()) : null;
    if (!frames) {
      // SPEC §7.4: a fenced write opens one fresh conversation and replays the batch once.
      await this.bind(false);
      frames = this.current ? await this.writer.write(this.current, batch, origin, this.m.clock.now()) : null;
    }
    if (!frames) throw new Error('transcript batch could not be stored');
    this.io.send(frames);
    announceBatch(this.m, this.plugins, this.userId, this.current, frames, origin);
  }

  /** Binds a recording session: the client's id first, fresh server ids after (SPEC §2.5). */
  private async bind(first: boolean): Promise<void> {
    this.current = null;
    for (let attempt = 0; attempt < MAX_BIND_TRIES; attempt++) {
      const clientId = first && attempt === 0 ? this.params.clientConversationId : null;
      const recordingSessionId = clientId ?? randomUUID();
      const result = await this.m.lifecycle.open(this.userId, {
        recordingSessionId,
        language: this.params.language,
        source: this.params.source,
        byok: this.params.byok,
      });
      this.owned.add(recordingSessionId);
      if (result.kind === 'gone') continue;
      const { conversation, envelope } = result;
      this.io.send(conversationSessionEvent(envelope, conversation.status));
      if (result.kind === 'closed') {
        // research/omi-listen.md §7.8: a completed binding replays memory_created, then rolls over.
        if (conversation.status === 'completed') {
          const memory = await this.m.conversations.get(this.userId, conversation.id, true);
          this.io.send(memoryEvent('memory_created', envelope, memory));
        }
        continue;
      }
      this.current = {
        recordingSessionId,
        conversationId: conversation.id,
        startedAt: conversation.started_at,
        hasSegments: result.nextSeq > 0,
        nextSeq: result.nextSeq,
        finishedAt: conversation.finished_at ?? conversation.created_at,
      };
      return;
    }
    throw new Error('no recording session could be bound');
  }

  /** SPEC §3.1: silence hands the conversation to processing; the caller starts a new one. */
  private async finalizeCurrent(): Promise<void> {
    const conversation = this.current;
    if (!conversation) return;
    this.current = null;
    const result = await this.m.lifecycle.finalize(this.userId, conversation.conversationId, {
      byokPresent: this.params.byok,
    });
    if (result.kind !== 'queued') return;
    if (!result.blocked) this.link.request(result.jobId, conversation.conversationId);
    const memory = await this.m.conversations.get(this.userId, conversation.conversationId, false);
    const envelope = result.envelope ?? legacyEnvelope(conversation.recordingSessionId, conversation.conversationId);
    this.io.send(memoryEvent('memory_processing_started', envelope, memory));
  }

  private async lifecycleTick(): Promise<void> {
    const now = this.m.clock.now();
    if (this.current && now - this.lastLeaseAt >= this.m.timings.sessionLeaseMs / 3) {
      this.lastLeaseAt = now;
      await this.m.lifecycle.renewLease(this.userId, [this.current.recordingSessionId]);
    }
    await this.link.tick();
    if (!this.current) return this.bind(false);
    const row = await this.m.live.find(this.userId, this.current.conversationId);
    if (row?.status !== 'in_progress' || row.discarded === 1) return this.bind(false);
    const idle = now - (row.finished_at ?? row.created_at);
    if (idle < this.params.conversationTimeoutMs) return;
    await this.finalizeCurrent();
    await this.bind(false);
  }

  private async subscribe(): Promise<void> {
    this.unsubscribe = this.m.bus.subscribe(userChannel(this.userId), (event) => this.onBusMessage(event));
    await this.m.bus.ready();
  }

  private onBusMessage(event: BusEvent): void {
    if (!forwardsEvent(event, this.owned)) return;
    if (event.type === 'memory_created' && typeof event.conversation_id === 'string')
      this.link.settle(event.conversation_id);
    this.io.send(event);
  }

  private startTimers(): void {
    this.timers.every(this.m.timings.pingMs, () => this.io.send('ping'));
    this.timers.every(this.m.timings.lifecycleCheckMs, () => {
      if (this.watchdog()) this.io.serial(() => this.lifecycleTick());
    });
  }

  /** SPEC §8: 90 s without any frame or 300 s without data close the socket with 1001. */
  private watchdog(): boolean {
    const now = this.m.clock.now();
    const { inactivityMs, receiveTimeoutMs } = this.m.timings;
    const alive = now - this.lastFrameAt <= inactivityMs && now - this.lastDataAt <= receiveTimeoutMs;
    if (!alive) this.io.close(1001, 'inactivity');
    return alive;
  }

  private failStt(failure: SttFailure): void {
    logSttFailure(this.m, this.userId, failure);
    this.io.send(serviceStatusEvent(sttFailedStatus(failure)));
    this.io.close(1011, 'transcription_service_unavailable');
  }

  /** SPEC §3.1 and §8: drain (30 s) then hand off or release the conversation; runs once. */
  private teardown(code: number): Promise<void> {
    this.torn ??= this.drainAndRelease(code);
    return this.torn;
  }

  private async drainAndRelease(code: number): Promise<void> {
    this.timers.clear();
    this.unsubscribe?.();
    // Failures inside serial() are already logged there; the drain goes on to the handoff regardless.
    const drain = (async () => {
      await this.audio.finish();
      await this.io.serial(() => this.flush()).catch(() => undefined);
      await this.io.serial(() => this.handOff(code)).catch(() => undefined);
      await this.plugins.close();
    })();
    await withTimeout(drain, this.m.timings.drainMs);
    this.audio.close();
    this.link.close();
    this.m.active.delete(this);
  }

  private async handOff(code: number): Promise<void> {
    const current = this.current;
    if (!current) return;
    // research/omi-listen.md §1.9: multi-channel always; single-channel only a desktop close 1000 with content.
    const process =
      this.params.channels >= 2 || (code === 1000 && this.params.source === 'desktop' && current.hasSegments);
    if (process) await this.finalizeCurrent();
    else await this.m.lifecycle.releaseLease(this.userId, current.recordingSessionId);
  }
}
