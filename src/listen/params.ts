import type { ListenTimings } from '../config.js';
import { type AudioFormat, type CodecName, validateAudioFormat } from '../providers/audio/codecs.js';
import { LANGUAGE_CODE, QueryTypeError, queryBool, queryInt } from './query.js';

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

/**
 * The stream's parameters (research/omi-listen.md §1.1). A value of the wrong type or an unknown
 * language closes with 1008 (the reference's query validation); a format no decoder takes closes
 * with 1003, and a codec whose decoder is not installed with 1001 (the reference's decoder start).
 * The `uid` query value is not read: the user is the token's (SPEC §4.11 lists it; the reference
 * binds it to the credentials).
 */
export function parseListenParams(
  query: Query,
  headers: Record<string, string | string[] | undefined>,
  timings: ListenTimings,
  codecUnavailable: (codec: CodecName) => string | null,
): ParamsResult {
  let channels: number;
  let rate: number;
  let timeout: number;
  try {
    channels = queryInt(one(query, 'channels'), 'channels', 1);
    rate = queryInt(one(query, 'sample_rate'), 'sample_rate', 8000);
    timeout = queryInt(one(query, 'conversation_timeout'), 'conversation_timeout', 120);
    for (const name of ['include_speech_profile', 'create_speakers']) queryBool(one(query, name), name, true);
  } catch (err) {
    if (err instanceof QueryTypeError) return { ok: false, code: 1008, reason: err.message };
    throw err;
  }
  const requested = (one(query, 'language') ?? 'en').trim() || 'en';
  if (!LANGUAGE_CODE.test(requested) || requested.length > 16)
    return { ok: false, code: 1008, reason: `The language is not supported, ${requested.slice(0, 40)}` };
  if (channels < 1 || channels > 8) return { ok: false, code: 1003, reason: 'unsupported channels' };
  const format = validateAudioFormat(one(query, 'codec') ?? 'pcm8', rate);
  if ('reason' in format) return { ok: false, code: 1003, reason: format.reason };
  if (channels >= 2 && (format.codec === 'aac' || format.codec === 'lc3'))
    return { ok: false, code: 1003, reason: `${format.codec} streams have one channel` };
  const missing = codecUnavailable(format.codec);
  if (missing) return { ok: false, code: 1001, reason: missing };
  const source = one(query, 'source')?.trim();
  const header = (name: string) => {
    const value = headers[name];
    const text = (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase();
    return text ? text.slice(0, 128) : null;
  };
  return {
    ok: true,
    params: {
      language: requested === 'auto' ? 'multi' : requested,
      format,
      channels,
      conversationTimeoutMs: effectiveTimeoutMs(timeout, channels, timings.minConversationTimeoutMs),
      clientConversationId: channels >= 2 ? null : normalizeClientId(one(query, 'client_conversation_id')),
      customStt: one(query, 'custom_stt') === 'enabled',
      source: source ? (SOURCES.has(source) ? source : 'unknown') : 'omi',
      platform: header('x-app-platform'),
      deviceIdHash: header('x-device-id-hash'),
      byok: Object.keys(headers).some((name) => name.toLowerCase().startsWith('x-byok-')),
    },
  };
}
