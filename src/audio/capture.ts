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
  /** audio handed to the writer and not yet stored (kept across failed writes) */
  unsaved: Buffer[];
  /** bytes in the store and on the part's row */
  written: number;
  /** the part's row exists */
  stored: boolean;
  /** the conversation was gone at the first write: the part is not stored */
  dropped: boolean;
}

/** Audio kept for retries while the store fails (10 minutes), oldest dropped beyond it. */
const MAX_UNSAVED_BYTES = 10 * PART_BYTES;

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
  /** closed parts whose audio is not all stored, or whose encoding is not queued yet */
  private closed: OpenPart[] = [];

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
    this.chain = this.chain.then(() => this.saveAll()); // a last try for audio a failed write kept
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
      unsaved: [],
      written: 0,
      stored: false,
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
    this.closed.push(part);
    this.chain = this.chain.then(() => this.saveAll());
  }

  /**
   * Hands the part's pending audio to the serial writer. A write that fails (the store is down)
   * keeps its audio: every later flush, and the session's close, tries again, oldest part first,
   * so an outage shorter than the retry budget loses nothing.
   */
  private flush(part: OpenPart): void {
    if (part.pendingBytes === 0) return;
    part.unsaved.push(Buffer.concat(part.pending));
    part.scheduled += part.pendingBytes;
    part.pending = [];
    part.pendingBytes = 0;
    this.chain = this.chain.then(() => this.saveAll());
  }

  /** Writes every part with unsaved audio in order; stops at the first failure (order is kept). */
  private async saveAll(): Promise<void> {
    const parts = [...this.closed, ...(this.part ? [this.part] : [])].filter((p) => p.unsaved.length > 0);
    for (const part of parts) {
      try {
        await this.write(part);
      } catch (err) {
        this.deps.log.warn(
          { err, userId: this.host.userId, part: part.id },
          'audio part write failed; kept for a retry',
        );
        this.shed();
        return;
      }
    }
    for (const part of this.closed.splice(0)) {
      if (part.unsaved.length > 0) this.closed.push(part);
      else if (!part.dropped && part.written > 0) await this.encodeLater(part);
    }
  }

  private async encodeLater(part: OpenPart): Promise<void> {
    await this.deps
      .partClosed(this.host.userId, part.conversationId, part.id, part.written)
      .catch((err) =>
        this.deps.log.warn({ err, userId: this.host.userId, part: part.id }, 'audio part encoding not queued'),
      );
  }

  /** Bounds what a long outage keeps in memory: the oldest unsaved audio goes first, and is logged. */
  private shed(): void {
    const parts = [...this.closed, ...(this.part ? [this.part] : [])];
    let unsaved = parts.reduce((sum, p) => sum + p.unsaved.reduce((n, b) => n + b.length, 0), 0);
    for (const part of parts) {
      if (unsaved <= MAX_UNSAVED_BYTES || part === this.part) break;
      const lost = part.unsaved.reduce((n, b) => n + b.length, 0);
      this.deps.log.error(
        { userId: this.host.userId, part: part.id, bytes: lost },
        'audio store down too long: audio lost',
      );
      part.unsaved = [];
      unsaved -= lost;
    }
  }

  private async write(part: OpenPart): Promise<void> {
    const { repo, store, clock } = this.deps;
    const userId = this.host.userId;
    if (part.dropped) {
      part.unsaved = [];
      return;
    }
    // Audio flushed while this write is under way stays in `unsaved` for the next one.
    const batch = part.unsaved.length;
    const data = Buffer.concat(part.unsaved.slice(0, batch));
    const total = part.written + data.length;
    if (!part.stored) {
      // A conversation deleted meanwhile gets no audio rows back.
      if (!(await repo.conversationExists(userId, part.conversationId))) {
        part.dropped = true;
        part.unsaved = [];
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
      part.stored = true;
    } else {
      await store.writeAt(part.key, part.written, data);
      await repo.growPart(userId, part.id, total, clock.now());
    }
    part.written = total;
    part.unsaved.splice(0, batch);
  }
}
