import type { Clock } from '../context-types.js';
import { openStore, type Store } from './db.js';
import { transactionRunner } from './group-commit.js';
import { migrateToLatest } from './migrate.js';
import { ActionItemsRepository } from './repositories/action-items.js';
import { ApiKeysRepository } from './repositories/api-keys.js';
import { ConversationAppResultsRepository } from './repositories/conversation-app-results.js';
import { ConversationEmbeddingsRepository } from './repositories/conversation-embeddings.js';
import { ConversationsRepository } from './repositories/conversations.js';
import { DataVersionsRepository } from './repositories/data-versions.js';
import { FoldersRepository } from './repositories/folders.js';
import { GoalsRepository } from './repositories/goals.js';
import { IdempotencyKeysRepository } from './repositories/idempotency-keys.js';
import { MemoriesRepository } from './repositories/memories.js';
import { PeopleRepository } from './repositories/people.js';
import { SearchRepository } from './repositories/search.js';
import { UsersRepository } from './repositories/users.js';

/** The repositories of the aggregates the services share, built once per process. */
export interface Repositories {
  users: UsersRepository;
  apiKeys: ApiKeysRepository;
  conversations: ConversationsRepository;
  actionItems: ActionItemsRepository;
  memories: MemoriesRepository;
  people: PeopleRepository;
  folders: FoldersRepository;
  goals: GoalsRepository;
  search: SearchRepository;
  conversationEmbeddings: ConversationEmbeddingsRepository;
  appResults: ConversationAppResultsRepository;
  dataVersions: DataVersionsRepository;
  idempotencyKeys: IdempotencyKeysRepository;
}

export interface StoreModule {
  store: Store;
  repos: Repositories;
}

export interface StoreOptions {
  databaseUrl: string | null;
  dataDir: string;
  poolSize: number;
  /** An open store (tests share one), else one is opened from the settings. */
  store?: Store;
  /** PostgreSQL schema for test isolation. */
  pgSchema?: string;
}

/** Opens the database, brings its schema up to date and builds the repositories. */
export async function createStoreModule(options: StoreOptions, clock: Clock): Promise<StoreModule> {
  const store =
    options.store ??
    openStore({
      databaseUrl: options.databaseUrl,
      dataDir: options.dataDir,
      pgSchema: options.pgSchema,
      poolSize: options.poolSize,
    });
  await migrateToLatest(store);
  const { db, dialect } = store;
  const repos: Repositories = {
    users: new UsersRepository(db),
    apiKeys: new ApiKeysRepository(db),
    conversations: new ConversationsRepository(db, transactionRunner(db, dialect)),
    actionItems: new ActionItemsRepository(db),
    memories: new MemoriesRepository(db),
    people: new PeopleRepository(db),
    folders: new FoldersRepository(db),
    goals: new GoalsRepository(db),
    search: new SearchRepository(db, dialect, clock),
    conversationEmbeddings: new ConversationEmbeddingsRepository(db),
    appResults: new ConversationAppResultsRepository(db),
    dataVersions: new DataVersionsRepository(db),
    idempotencyKeys: new IdempotencyKeysRepository(db),
  };
  return { store, repos };
}
