import type { Clock } from '../context-types.js';
import { appMemoryRow } from '../domain/apps/integration.js';
import { PermanentJobError } from '../jobs/runner.js';
import type { TextEngine } from '../processing/engine.js';
import type { AppImportsRepository } from '../store/repositories/app-imports.js';
import type { MemoriesRepository } from '../store/repositories/memories.js';
import type { UsersRepository } from '../store/repositories/users.js';

// Imported text can be long (an email, a document): more facts than a conversation's 4 are worth keeping.
const MAX_IMPORTED_MEMORIES = 25;

export interface MemoryImportDeps {
  imports: AppImportsRepository;
  memories: MemoriesRepository;
  users: UsersRepository;
  engine: TextEngine;
  clock: Clock;
}

/** Job handler: extracts memories from an app's text with the text engine and stores them (origin `app`). */
export async function runMemoryImport(deps: MemoryImportDeps, userId: string, importId: string): Promise<void> {
  const entry = await deps.imports.findById(userId, importId);
  if (entry?.status !== 'pending' || entry.text === null) return;
  const user = await deps.users.findById(userId);
  if (!user) throw new PermanentJobError('user no longer exists');
  const existing = await deps.memories.recentContents(userId, 500);
  const extracted = await deps.engine.extractMemories(
    {
      text: entry.text,
      segments: [],
      startedAt: new Date(entry.created_at),
      timezone: user.timezone,
      language: 'en',
      userName: user.name,
    },
    existing,
  );
  const now = deps.clock.now();
  // research/omi-rest.md §3.3: the source label is text_source_spec when set, else text_source.
  const label = entry.text_source_spec?.trim() || entry.text_source;
  await deps.imports.transaction(async (tx) => {
    await deps.memories.insertMany(
      extracted
        .slice(0, MAX_IMPORTED_MEMORIES)
        .map((m, i) => appMemoryRow(userId, entry.app_id, m.content, m.category, [...m.tags, label], now + i)),
      tx,
    );
    await deps.imports.complete(userId, importId, now, tx);
  });
}

export function importPayload(payload: string): string {
  const parsed: unknown = JSON.parse(payload);
  const id = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>).import_id : undefined;
  if (typeof id !== 'string') throw new PermanentJobError('malformed memory import payload');
  return id;
}
