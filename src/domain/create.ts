import type { Logger } from 'pino';
import type { Clock } from '../context-types.js';
import type { TextGenerator } from '../providers/llm/index.js';
import type { Repositories } from '../store/module.js';
import { ActionItemsService } from './action-items/service.js';
import { AskService } from './ask/service.js';
import { ConversationsService } from './conversations/service.js';
import { ExportService } from './export/service.js';
import { FoldersService } from './folders/service.js';
import { GoalsService } from './goals/service.js';
import { DevKeysService } from './keys/service.js';
import { MemoriesService } from './memories/service.js';
import { PeopleService, type VoiceCounts } from './people/service.js';
import type { ConversationProcessing } from './ports.js';
import type { Embedder } from './search/embeddings.js';
import { SearchService } from './search/service.js';
import type { OidcVerifier } from './users/oidc.js';
import { UsersService } from './users/service.js';

/** The services of the developer API and the user's own routes (DESIGN §3: the rules, given their ports). */
export interface DomainServices {
  users: UsersService;
  keys: DevKeysService;
  conversations: ConversationsService;
  memories: MemoriesService;
  actionItems: ActionItemsService;
  folders: FoldersService;
  goals: GoalsService;
  search: SearchService;
  exporter: ExportService;
  people: PeopleService;
  ask: AskService;
}

export interface DomainDeps {
  repos: Repositories;
  processing: ConversationProcessing;
  clock: Clock;
  log: Logger;
  secret: string;
  oidc: OidcVerifier | null;
  embedder: Embedder | null;
  /** The LLM that writes answers to questions (null: extracted answers). */
  generator: TextGenerator | null;
  voices: VoiceCounts;
  /** What else goes when a conversation is deleted (its audio: docs/voices-and-audio.md). */
  onConversationDeleted: (userId: string, conversationId: string) => Promise<void>;
}

export function createDomainServices(deps: DomainDeps): DomainServices {
  const { repos, clock } = deps;
  const conversations = new ConversationsService({
    ...repos,
    processing: deps.processing,
    clock,
    onDeleted: deps.onConversationDeleted,
  });
  return {
    users: new UsersService(repos.users, clock, deps.secret, deps.oidc),
    keys: new DevKeysService(repos.apiKeys, clock),
    conversations,
    memories: new MemoriesService(repos.memories, clock),
    actionItems: new ActionItemsService(repos.actionItems, clock),
    folders: new FoldersService(repos.folders, repos.conversations, conversations, clock),
    goals: new GoalsService(repos.goals, clock),
    search: new SearchService(repos.search, conversations, deps.embedder, clock, deps.log),
    exporter: new ExportService({ ...repos, conversationRows: repos.conversations, conversations, clock }),
    people: new PeopleService(repos.people, clock, deps.voices),
    ask: new AskService({
      search: repos.search,
      embeddings: repos.conversationEmbeddings,
      conversations,
      embedder: deps.embedder,
      generator: deps.generator,
      clock,
      log: deps.log,
    }),
  };
}
