import { randomUUID } from 'node:crypto';
import type { Clock } from '../../context-types.js';
import { AppError, Detail, invalidInput } from '../../errors.js';
import type { ConversationsRepository } from '../../store/repositories/conversations.js';
import type { FolderPatch, FoldersRepository, FolderWithCount } from '../../store/repositories/folders.js';
import type { ConversationsService } from '../conversations/service.js';
import type { DeveloperConversation } from '../conversations/views.js';
import type { CreateReceipt } from '../ports.js';
import { createWithReceipt } from '../receipts.js';

/** research/omi-rest.md §2.1 folder shape; user folders are never default or system folders. */
export interface FolderView {
  id: string;
  name: string;
  description: string | null;
  color: string;
  icon: string;
  created_at: string;
  updated_at: string;
  order: number;
  is_default: boolean;
  is_system: boolean;
  conversation_count: number;
}

export interface CreateFolderInput {
  name: string;
  description?: string | null;
  color?: string;
  icon?: string;
  order?: number;
}

export interface UpdateFolderInput {
  name?: string | null;
  description?: string | null;
  color?: string | null;
  icon?: string | null;
  order?: number | null;
}

const DEFAULT_COLOR = '#6b7280';
const DEFAULT_ICON = '📁';

export function toFolderView(row: FolderWithCount): FolderView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    color: row.color,
    icon: row.icon,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    order: row.position,
    is_default: false,
    is_system: false,
    conversation_count: Number(row.conversation_count),
  };
}

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw invalidInput(['body', 'name'], Detail.folderNameEmpty);
  return trimmed;
}

export class FoldersService {
  constructor(
    private readonly folders: FoldersRepository,
    private readonly conversationRows: ConversationsRepository,
    private readonly conversations: ConversationsService,
    private readonly clock: Clock,
  ) {}

  /** Read-only: a user without folders gets `[]` (no default folders are created). */
  async list(userId: string): Promise<FolderView[]> {
    return (await this.folders.listWithCounts(userId)).map(toFolderView);
  }

  async create(userId: string, input: CreateFolderInput, receipt?: CreateReceipt): Promise<FolderView> {
    const now = this.clock.now();
    const row = {
      id: randomUUID(),
      user_id: userId,
      name: cleanName(input.name),
      description: input.description?.trim() || null,
      color: input.color ?? DEFAULT_COLOR,
      icon: input.icon ?? DEFAULT_ICON,
      position: input.order ?? (await this.folders.nextPosition(userId)),
      created_at: now,
      updated_at: now,
    };
    // A new folder holds no conversations yet.
    const view = toFolderView({ ...row, conversation_count: 0 });
    return createWithReceipt(this.folders, (tx) => this.folders.insert(row, tx), view, receipt);
  }

  async update(userId: string, id: string, input: UpdateFolderInput): Promise<FolderView> {
    if (!(await this.folders.exists(userId, id))) throw new AppError(404, Detail.folderNotFound);
    const patch: FolderPatch = {};
    if (input.name !== undefined && input.name !== null) patch.name = cleanName(input.name);
    // An explicit null (or blank) description clears it.
    if (input.description !== undefined) patch.description = input.description?.trim() || null;
    if (input.color !== undefined && input.color !== null) patch.color = input.color;
    if (input.icon !== undefined && input.icon !== null) patch.icon = input.icon;
    if (input.order !== undefined && input.order !== null) patch.position = input.order;
    if (Object.keys(patch).length === 0) throw invalidInput(['body'], Detail.atLeastOneField);
    await this.folders.update(userId, id, { ...patch, updated_at: this.clock.now() });
    return this.get(userId, id);
  }

  /** The folder's conversations stay; they simply have no folder afterwards. */
  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.folders.delete(userId, id))) throw new AppError(404, Detail.folderNotFound);
  }

  /** SPEC §2.1: a conversation is in at most one folder; `null` takes it out. */
  async moveConversation(
    userId: string,
    conversationId: string,
    folderId: string | null,
  ): Promise<DeveloperConversation> {
    await this.requireConversation(userId, conversationId);
    if (folderId !== null && !(await this.folders.exists(userId, folderId)))
      throw new AppError(404, Detail.folderNotFound);
    await this.conversationRows.update(userId, conversationId, { folder_id: folderId, updated_at: this.clock.now() });
    return this.conversations.get(userId, conversationId, false);
  }

  async setStarred(userId: string, conversationId: string, starred: boolean): Promise<DeveloperConversation> {
    await this.requireConversation(userId, conversationId);
    await this.conversationRows.update(userId, conversationId, {
      starred: starred ? 1 : 0,
      updated_at: this.clock.now(),
    });
    return this.conversations.get(userId, conversationId, false);
  }

  private async get(userId: string, id: string): Promise<FolderView> {
    const row = await this.folders.findWithCount(userId, id);
    if (!row) throw new AppError(404, Detail.folderNotFound);
    return toFolderView(row);
  }

  private async requireConversation(userId: string, conversationId: string): Promise<void> {
    if (!(await this.conversationRows.findById(userId, conversationId)))
      throw new AppError(404, Detail.conversationNotFound);
  }
}
