import type { AppKeyRow, AppRow } from '../../store/repositories/apps.js';
import { type AppConfig, appConfigOf, PROACTIVE_SCOPES, parseList } from './model.js';

/** An app as a user sees it; the webhook URL only for its owner. */
export interface AppView {
  id: string;
  name: string;
  description: string;
  owner_uid: string | null;
  capabilities: string[];
  external_integration: { triggers_on: string | null; webhook_url: string | null; actions: string[] } | null;
  proactive_notification: { scopes: string[] } | null;
  /** The summarization prompt (apps with the memories capability). */
  memory_prompt: string | null;
  owned: boolean;
  enabled: boolean;
  /** The proactive scopes this user granted when enabling (null when not enabled). */
  granted_scopes: string[] | null;
  created_at: string;
  updated_at: string;
}

export interface AppKeyView {
  id: string;
  label: string;
  created_at: string;
  last_used_at: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function toAppView(row: AppRow, viewer: string, enablement: { granted_scopes: string } | null): AppView {
  const config: AppConfig = appConfigOf(row);
  const owned = row.owner_id !== null && row.owner_id === viewer;
  return {
    id: row.id,
    name: config.name,
    description: config.description,
    owner_uid: row.owner_id,
    capabilities: config.capabilities,
    external_integration: config.capabilities.includes('external_integration')
      ? { triggers_on: config.triggersOn, webhook_url: owned ? config.webhookUrl : null, actions: config.actions }
      : null,
    proactive_notification: config.capabilities.includes('proactive_notification') ? { scopes: config.scopes } : null,
    memory_prompt: config.memoryPrompt,
    owned,
    enabled: enablement !== null,
    granted_scopes: enablement ? parseList(enablement.granted_scopes, PROACTIVE_SCOPES) : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function toAppKeyView(row: AppKeyRow): AppKeyView {
  return {
    id: row.id,
    label: row.label,
    created_at: iso(row.created_at),
    last_used_at: row.last_used_at === null ? null : iso(row.last_used_at),
  };
}
