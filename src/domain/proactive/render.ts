import { PROACTIVE_SCOPES, type ProactiveScope } from '../apps/model.js';

/** research/omi-rest.md §4.3: prompts over this size are refused; replies under 5 characters are dropped. */
export const MIN_PROMPT_LENGTH = 5;
export const MAX_PROMPT_LENGTH = 128_000;
export const MIN_REPLY_LENGTH = 5;

export interface NotificationRequest {
  prompt: string;
  /** The variables the app says it uses; null when it sent none. */
  params: string[] | null;
}

export type ParsedReply =
  | { kind: 'request'; request: NotificationRequest }
  | { kind: 'none' }
  | { kind: 'invalid'; reason: 'invalid_reply' | 'invalid_notification' | 'prompt_too_short' | 'prompt_too_long' };

/** SPEC §4.10: `{session_id}` alone asks for nothing; `{session_id, notification:{prompt, params}}` asks for a notification. */
export function parseWebhookReply(body: string): ParsedReply {
  if (body.trim() === '') return { kind: 'none' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { kind: 'invalid', reason: 'invalid_reply' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { kind: 'invalid', reason: 'invalid_reply' };
  const notification = (parsed as Record<string, unknown>).notification;
  if (notification === undefined || notification === null) return { kind: 'none' };
  if (typeof notification !== 'object' || Array.isArray(notification))
    return { kind: 'invalid', reason: 'invalid_notification' };
  const { prompt, params } = notification as Record<string, unknown>;
  if (typeof prompt !== 'string') return { kind: 'invalid', reason: 'invalid_notification' };
  if (prompt.trim().length < MIN_PROMPT_LENGTH) return { kind: 'invalid', reason: 'prompt_too_short' };
  if (prompt.length > MAX_PROMPT_LENGTH) return { kind: 'invalid', reason: 'prompt_too_long' };
  const list = Array.isArray(params) ? params.filter((p): p is string => typeof p === 'string') : null;
  return { kind: 'request', request: { prompt, params: list } };
}

/**
 * The scopes whose variables are filled in: declared by the app, granted by the user and, when the
 * app lists `params`, named there. Every other variable renders empty (DESIGN §7).
 */
export function effectiveScopes(
  declared: readonly ProactiveScope[],
  granted: readonly ProactiveScope[],
  params: readonly string[] | null,
): ProactiveScope[] {
  return PROACTIVE_SCOPES.filter(
    (s) => declared.includes(s) && granted.includes(s) && (params === null || params.includes(s)),
  );
}

/** Replaces `{{user_name}}`, `{{user_facts}}`, `{{user_context}}`, `{{user_chat}}`; missing values render empty. */
export function renderPrompt(prompt: string, values: Partial<Record<ProactiveScope, string>>): string {
  return prompt
    .replace(
      /\{\{\s*(user_name|user_facts|user_context|user_chat)\s*\}\}/g,
      (_match, name: ProactiveScope) => values[name] ?? '',
    )
    .trim();
}
