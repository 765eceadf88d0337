import type { ListenTimings } from '../config.js';
import { type AudioFormat, validateAudioFormat } from '../providers/audio/codecs.js';

/** research/omi-listen.md §1.1: conversation sources; an unknown value maps to `unknown`. */
const SOURCES = new Set([
  'friend',
  'omi',
  'fieldy',
  'bee',
  'plaud',
  'frame',
  'friend_com',
  'apple_watch',
  'phone',
  'phone_call',
  'desktop',
  'openglass',
  'screenpipe',
  'workflow',
  'sdcard',
  'external_integration',
  'limitless',
  'rayban_meta',
  'onboarding',
]);
const FOUR_HOURS_MS = 4 * 3600 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ListenParams {
  uid: string | null;
  language: string;
  format: AudioFormat;
  channels: number;
  conversationTimeoutMs: number;
  clientConversationId: string | null;
  customStt: boolean;
  source: string;
  platform: string | null;
  deviceIdHash: string | null;
  /** The request carried a user-supplied provider key header (X-BYOK-*); its value is never stored. */
  byok: boolean;
}

export type ParamsResult = { ok: true; params: ListenParams } | { ok: false; code: number; reason: string };

type Query = Record<string, string | string[] | undefined>;

function one(query: Query, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}

function int(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  return /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
}

/** research/omi-listen.md §1.7: -1 and multi-channel mean 4 h; everything is clamped to the minimum. */
export function effectiveTimeoutMs(seconds: number, channels: number, minimumMs: number): number {
  const requested = seconds === -1 || channels >= 2 ? FOUR_HOURS_MS : seconds * 1000;
  return Math.max(minimumMs, Number.isFinite(requested) ? requested : minimumMs);
}

/** research/omi-listen.md §2.1: a client id counts only when it is a UUID (normalised to lower case). */
export function normalizeClientId(value: string | undefined): string | null {
  const trimmed = value?.trim().toLowerCase();
  return trimmed && UUID.test(trimmed) ? trimmed : null;
}

export function parseListenParams(
  query: Query,
  headers: Record<string, string | string[] | undefined>,
  timings: ListenTimings,
  opusAvailable: boolean,
): ParamsResult {
  const channels = int(one(query, 'channels'), 1);
  if (!Number.isInteger(channels) || channels < 1 || channels > 8)
    return { ok: false, code: 1003, reason: 'unsupported channels' };
  const rate = int(one(query, 'sample_rate'), 8000);
  const format = validateAudioFormat(one(query, 'codec') ?? 'pcm8', rate, opusAvailable);
  if ('reason' in format) return { ok: false, code: 1003, reason: format.reason };
  const timeout = int(one(query, 'conversation_timeout'), 120);
  const language = (one(query, 'language') ?? 'en').trim().slice(0, 16) || 'en';
  const source = one(query, 'source')?.trim();
  const header = (name: string) => {
    const value = headers[name];
    const text = (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase();
    return text ? text.slice(0, 128) : null;
  };
  return {
    ok: true,
    params: {
      uid: one(query, 'uid')?.trim() || null,
      language: language === 'auto' ? 'multi' : language,
      format,
      channels,
      conversationTimeoutMs: effectiveTimeoutMs(
        Number.isFinite(timeout) ? timeout : 120,
        channels,
        timings.minConversationTimeoutMs,
      ),
      clientConversationId: channels >= 2 ? null : normalizeClientId(one(query, 'client_conversation_id')),
      customStt: one(query, 'custom_stt') === 'enabled',
      source: source ? (SOURCES.has(source) ? source : 'unknown') : 'omi',
      platform: header('x-app-platform'),
      deviceIdHash: header('x-device-id-hash'),
      byok: Object.keys(headers).some((name) => name.toLowerCase().startsWith('x-byok-')),
    },
  };
}
