/** Tables of third-party apps (migration 0020), added to the shared Database interface. */

export interface AppsTable {
  id: string;
  /** The user who manages the app (null for apps an operator created without --owner). */
  owner_id: string | null;
  name: string;
  description: string;
  /** JSON array: external_integration, proactive_notification, chat, memories */
  capabilities: string;
  /** transcript_processed | memory_creation | audio_bytes */
  triggers_on: string | null;
  webhook_url: string | null;
  /** JSON array: create_conversation, create_memories, read_conversations, read_memories, read_tasks */
  actions: string;
  /** JSON array ⊆ user_name, user_facts, user_context, user_chat (requested by the app) */
  proactive_scopes: string;
  /** The summarization prompt of a `memories` app (migration 0060), run on each processed conversation. */
  memory_prompt: string | null;
  /** SHA-256 of the app secret's hex part (authenticates the notification endpoint). */
  secret_hash: string;
  /** The app secret sealed with the server secret (signs webhooks; DESIGN §7). */
  secret_sealed: string;
  created_at: number;
  updated_at: number;
  /** Soft delete: keys stay, every integration call answers 404 `App not found`. */
  deleted_at: number | null;
}

export interface AppKeysTable {
  id: string;
  app_id: string;
  hashed_key: string;
  /** sk_abcd...wxyz */
  label: string;
  created_by: string | null;
  created_at: number;
  last_used_at: number | null;
}

export interface AppEnablementsTable {
  user_id: string;
  app_id: string;
  /** JSON array of the proactive scopes the user granted when enabling. */
  granted_scopes: string;
  enabled_at: number;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  app_id: string | null;
  title: string;
  message: string;
  /** integration (the notification endpoint) | proactive (generated from a webhook reply) */
  source: string;
  created_at: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  user_id: string;
  app_id: string | null;
  /** The webhook_batches row this delivery was expanded from. */
  batch_id: string;
  /** transcript_processed | memory_creation | push */
  kind: string;
  url: string;
  /** JSON object of extra request headers (e.g. Title for ntfy). */
  headers: string;
  /** The JSON body; dropped once the delivery is final (it may hold transcript text). */
  body: string | null;
  /** pending | delivered | dead_letter | skipped */
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  /** What followed a delivered transcript_processed call (notified, cooldown, llm_not_configured, …). */
  outcome: string | null;
  idempotency_key: string;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
}

export interface WebhookBatchesTable {
  id: string;
  user_id: string;
  /** transcript_processed | memory_creation | push */
  kind: string;
  /** The JSON body every target receives. */
  body: string;
  /** JSON array of {app_id, url, headers, idempotency_key}. */
  targets: string;
  created_at: number;
}

export interface AppMemoryImportsTable {
  id: string;
  user_id: string;
  app_id: string;
  /** The text to extract from; cleared once the import is done. */
  text: string | null;
  text_source: string;
  text_source_spec: string | null;
  /** pending | completed */
  status: string;
  created_at: number;
  updated_at: number;
}

declare module '../schema.js' {
  interface Database {
    apps: AppsTable;
    app_keys: AppKeysTable;
    app_enablements: AppEnablementsTable;
    notifications: NotificationsTable;
    webhook_deliveries: WebhookDeliveriesTable;
    webhook_batches: WebhookBatchesTable;
    app_memory_imports: AppMemoryImportsTable;
  }
}
