import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../context-types.js';
import type { SessionPlugin, SessionPluginHost } from '../listen/module.js';
import type { AudioRepository } from '../store/repositories/audio.js';
import { BYTES_PER_SECOND } from './artifact.js';
import { type AudioObjectStore, audioKey } from './store.js';

/** SPEC §8: audio is stored in 60 s parts per conversation. */
export const PART_BYTES = 60 * BYTES_PER_SECOND;
/** Buffered audio is written every 5 s, so a crash loses at most that much. */
const FLUSH_BYTES = 5 * BYTES_PER_SECOND;
/** Audio arriving this much later than the running position starts a new part at the wall clock. */
const REANCHOR_MS = 2000;
/** Audio held while the setting or the conversation is not yet known. */
const MAX_HELD_BYTES = 60 * BYTES_PER_SECOND;

export interface CaptureDeps {
  repo: AudioRepository;
  store: AudioObjectStore;
  clock: Clock;
  log: Logger;
  enabled(userId: string): Promise<boolean>;
  /** A part is complete (60 s, a pause, a new conversation or the end): its MP3 can be encoded now. */
  partClosed(userId: string, conversationId: string, partId: string, bytes: number): Promise<void>;
}

interface OpenPart {
  id: string;
  conversationId: string;
  /** epoch ms of the first sample */
  startedAt: number;
  key: string;
  /** bytes handed to the writer so far */
  scheduled: number;
  pending: Buffer[];
  pendingBytes: number;
  /** the conversation was gone at the first write: the part is not stored */
  dropped: boolean;
}

/**
 * Stores a session's decoded audio in 60 s parts of its current conversation when the user's audio
 * capture setting is on. A part's start is the wall clock of its first sample: the running position
 * advances with the audio and is re-anchored to the clock after a pause (gaps between parts are
 * what the artifact fills or collapses).
 */
export class AudioCapture implements SessionPlugin {
  private enabled: boolean | null = null;
  private held: Array<{ pcm: Buffer; at: number }> = [];
  private heldBytes = 0;
  private part: OpenPart | null = null;
  private position: number | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: SessionPluginHost,
    private readonly deps: CaptureDeps,
  ) {
    deps.enabled(host.userId).then(
      (on) => this.settle(on),
      (err) => {
        deps.log.warn({ err, userId: host.userId }, 'audio capture setting could not be read; not capturing');
        this.settle(false);
      },
    );
  }

  onAudio(pcm: Buffer, channel: number): void {
    if (channel !== 0 || this.enabled === false || pcm.length === 0) return;
    const now = this.deps.clock.now();
    const conversationId = this.host.currentConversationId();
    if (this.enabled === null || conversationId === null) {
      this.hold(pcm, now);
      return;
    }
    for (const held of this.held.splice(0)) this.accept(held.pcm, conversationId, held.at);
    this.heldBytes = 0;
    this.accept(pcm, conversationId, now);
  }

  async close(): Promise<void> {
    this.closePart();
    await this.chain;
  }

  private settle(on: boolean): void {
    this.enabled = on;
    if (!on) {
      this.held = [];
      this.heldBytes = 0;
    }
  }

  private hold(pcm: Buffer, at: number): void {
    this.held.push({ pcm, at });
    this.heldBytes += pcm.length;
    while (this.heldBytes > MAX_HELD_BYTES && this.held.length > 1)
      this.heldBytes -= this.held.shift()?.pcm.length ?? 0;
  }

  private accept(pcm: Buffer, conversationId: string, now: number): void {
    if (this.position === null || now - this.position > REANCHOR_MS) {
      this.closePart();
      this.position = now;
    }
    if (this.part && this.part.conversationId !== conversationId) this.closePart();
    let rest = pcm;
    while (rest.length > 0) {
      const part = this.part ?? this.openPart(conversationId);
      const room = PART_BYTES - part.scheduled - part.pendingBytes;
      const piece = rest.subarray(0, room);
      part.pending.push(piece);
      part.pendingBytes += piece.length;
      this.position = (this.position ?? now) + (piece.length / BYTES_PER_SECOND) * 1000;
      rest = rest.subarray(piece.length);
      if (part.scheduled + part.pendingBytes >= PART_BYTES) this.closePart();
      else if (part.pendingBytes >= FLUSH_BYTES) this.flush(part);
    }
  }

  private openPart(conversationId: string): OpenPart {
    const id = randomUUID();
    const startedAt = Math.round(this.position ?? this.deps.clock.now());
    this.part = {
      id,
      conversationId,
      startedAt,
      key: audioKey(this.host.userId, conversationId, 'parts', `${startedAt}-${id}.pcm`),
      scheduled: 0,
      pending: [],
      pendingBytes: 0,
      dropped: false,
    };
    return this.part;
  }

  private closePart(): void {
    const part = this.part;
    this.part = null;
    if (!part) return;
    this.flush(part);
    if (part.scheduled === 0) return;
    this.chain = this.chain
      .then(() =>
        part.dropped ? undefined : this.deps.partClosed(this.host.userId, part.conversationId, part.id, part.scheduled),
      )
      .catch((err) =>
        this.deps.log.warn({ err, userId: this.host.userId, part: part.id }, 'audio part encoding not queued'),
      );
  }

  /** Hands the part's pending audio to the serial writer: the first write creates the part's row. */
  private flush(part: OpenPart): void {
    if (part.pendingBytes === 0) return;
    const data = Buffer.concat(part.pending);
    const first = part.scheduled === 0;
    part.scheduled += data.length;
    part.pending = [];
    part.pendingBytes = 0;
    const total = part.scheduled;
    this.chain = this.chain
      .then(() => this.write(part, data, first, total))
      .catch((err) => this.deps.log.warn({ err, userId: this.host.userId, part: part.id }, 'audio part write failed'));
  }

  private async write(part: OpenPart, data: Buffer, first: boolean, total: number): Promise<void> {
    const { repo, store, clock } = this.deps;
    const userId = this.host.userId;
    if (part.dropped) return;
    if (first) {
      // A conversation deleted meanwhile gets no audio rows back.
      if (!(await repo.conversationExists(userId, part.conversationId))) {
        part.dropped = true;
        return;
      }
      await store.put(part.key, data);
      const now = clock.now();
      await repo.insertPart({
        id: part.id,
        user_id: userId,
        conversation_id: part.conversationId,
        started_at: part.startedAt,
        bytes: total,
        storage_key: part.key,
        encoded_bytes: null,
        created_at: now,
        updated_at: now,
      });
      return;
    }
    await store.append(part.key, data);
    await repo.growPart(userId, part.id, total, clock.now());
  }
}
