import { invalidInput } from '../../errors.js';
import type { AppRow } from '../../store/repositories/apps.js';

/** DESIGN §5: what an app may declare. */
export const CAPABILITIES = ['external_integration', 'proactive_notification', 'chat', 'memories'] as const;
export const ACTIONS = [
  'create_conversation',
  'create_memories',
  'read_conversations',
  'read_memories',
  'read_tasks',
] as const;
export const TRIGGERS = ['transcript_processed', 'memory_creation', 'audio_bytes'] as const;
export const PROACTIVE_SCOPES = ['user_name', 'user_facts', 'user_context', 'user_chat'] as const;

export type Capability = (typeof CAPABILITIES)[number];
export type AppAction = (typeof ACTIONS)[number];
export type Trigger = (typeof TRIGGERS)[number];
export type ProactiveScope = (typeof PROACTIVE_SCOPES)[number];

/** An app's declared configuration, as the owner (or the operator) writes it. */
export interface AppConfig {
  name: string;
  description: string;
  capabilities: Capability[];
  triggersOn: Trigger | null;
  webhookUrl: string | null;
  actions: AppAction[];
  scopes: ProactiveScope[];
  /** The summarization prompt (docs/apps.md "Summarization apps"); needs the memories capability. */
  memoryPrompt: string | null;
}

export interface AppConfigInput {
  name: string;
  description?: string | null;
  capabilities?: readonly string[] | null;
  triggers_on?: string | null;
  webhook_url?: string | null;
  actions?: readonly string[] | null;
  scopes?: readonly string[] | null;
  memory_prompt?: string | null;
}

/** Longest summarization prompt an app may declare. */
export const MEMORY_PROMPT_MAX = 10_000;

function pick<T extends string>(
  values: readonly string[] | null | undefined,
  allowed: readonly T[],
  what: string,
): T[] {
  const unique = [...new Set((values ?? []).map((v) => v.trim()).filter(Boolean))];
  const unknown = unique.filter((v) => !(allowed as readonly string[]).includes(v));
  if (unknown.length > 0)
    throw invalidInput(['body', what], `Unknown ${what}: ${unknown.join(', ')}. Allowed: ${allowed.join(', ')}`);
  return unique as T[];
}

/**
 * Why a webhook URL can never be delivered (a private or loopback literal, a loopback name), or null.
 * The delivery adapter's own rule, handed in so a save refuses what dispatch would (docs/apps.md).
 */
export type WebhookTargetCheck = (url: URL) => string | null;

function webhookUrl(value: string | null | undefined, check: WebhookTargetCheck): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw invalidInput(['body', 'webhook_url'], 'webhook_url is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw invalidInput(['body', 'webhook_url'], 'webhook_url must use http or https');
  if (parsed.username || parsed.password)
    throw invalidInput(['body', 'webhook_url'], 'webhook_url must not contain credentials');
  const refusal = check(parsed);
  if (refusal !== null) {
    const msg = `webhook_url can never be delivered: ${refusal}; webhooks go to public addresses only (ALLOW_PRIVATE_WEBHOOKS=true lifts this)`;
    throw invalidInput(['body', 'webhook_url'], msg);
  }
  return parsed.toString();
}

/**
 * Validates an app's declaration. SPEC §4.10/§5: webhooks and import actions belong to the
 * external_integration capability; proactive scopes to proactive_notification.
 */
export function parseAppConfig(input: AppConfigInput, checkTarget: WebhookTargetCheck): AppConfig {
  const name = input.name.trim();
  if (name === '') throw invalidInput(['body', 'name'], 'name cannot be empty');
  const capabilities = pick(input.capabilities, CAPABILITIES, 'capabilities');
  const actions = pick(input.actions, ACTIONS, 'actions');
  const scopes = pick(input.scopes, PROACTIVE_SCOPES, 'scopes');
  const [triggersOn = null, ...extra] = pick(input.triggers_on ? [input.triggers_on] : [], TRIGGERS, 'triggers_on');
  if (extra.length > 0) throw invalidInput(['body', 'triggers_on'], 'triggers_on takes one event');
  const url = webhookUrl(input.webhook_url, checkTarget);
  const integration = capabilities.includes('external_integration');
  if (!integration && (actions.length > 0 || triggersOn || url)) {
    throw invalidInput(
      ['body', 'capabilities'],
      'actions, triggers_on and webhook_url need the external_integration capability',
    );
  }
  if (triggersOn && !url)
    throw invalidInput(['body', 'webhook_url'], 'webhook_url is required when triggers_on is set');
  if (scopes.length > 0 && !capabilities.includes('proactive_notification')) {
    throw invalidInput(['body', 'scopes'], 'scopes need the proactive_notification capability');
  }
  const memoryPrompt = parseMemoryPrompt(input.memory_prompt, capabilities);
  return {
    name,
    description: input.description?.trim() ?? '',
    capabilities,
    triggersOn,
    webhookUrl: url,
    actions,
    scopes,
    memoryPrompt,
  };
}

/** null clears the prompt; a prompt needs the memories capability and 1..10,000 characters of text. */
function parseMemoryPrompt(value: string | null | undefined, capabilities: readonly Capability[]): string | null {
  if (value === undefined || value === null) return null;
  const prompt = value.trim();
  if (prompt === '') throw invalidInput(['body', 'memory_prompt'], 'memory_prompt cannot be empty');
  if (prompt.length > MEMORY_PROMPT_MAX) {
    throw invalidInput(['body', 'memory_prompt'], `memory_prompt is longer than ${MEMORY_PROMPT_MAX} characters`);
  }
  if (!capabilities.includes('memories'))
    throw invalidInput(['body', 'memory_prompt'], 'memory_prompt needs the memories capability');
  return prompt;
}

export function parseList<T extends string>(stored: string, allowed: readonly T[]): T[] {
  const parsed: unknown = JSON.parse(stored);
  if (!Array.isArray(parsed)) return [];
  return parsed.filter((v): v is T => typeof v === 'string' && (allowed as readonly string[]).includes(v));
}

/** The declaration of a stored app. */
export function appConfigOf(row: AppRow): AppConfig {
  return {
    name: row.name,
    description: row.description,
    capabilities: parseList(row.capabilities, CAPABILITIES),
    triggersOn: (TRIGGERS as readonly string[]).includes(row.triggers_on ?? '') ? (row.triggers_on as Trigger) : null,
    webhookUrl: row.webhook_url,
    actions: parseList(row.actions, ACTIONS),
    scopes: parseList(row.proactive_scopes, PROACTIVE_SCOPES),
    memoryPrompt: row.memory_prompt,
  };
}

/** SPEC §5 rule 4: the import actions are selected under external_integration. */
export function appAllows(config: AppConfig, action: AppAction): boolean {
  return config.capabilities.includes('external_integration') && config.actions.includes(action);
}
