import type { ConversationsRepository } from '../../store/repositories/conversations.js';
import type { MemoriesRepository } from '../../store/repositories/memories.js';
import type { NotificationsRepository } from '../../store/repositories/notifications.js';
import type { UsersRepository } from '../../store/repositories/users.js';
import type { ProactiveScope } from '../apps/model.js';

export interface ContextSources {
  users: UsersRepository;
  memories: MemoriesRepository;
  conversations: ConversationsRepository;
  notifications: NotificationsRepository;
}

export interface BatchSegment {
  text: string;
  speaker?: string;
  is_user?: boolean;
}

const FACTS = 50;
const RECENT_CONVERSATIONS = 5;
const CHAT_MESSAGES = 10;

/** The text of each granted template variable (SPEC §4.10), read only for the scopes in use. */
export async function gatherContext(
  sources: ContextSources,
  userId: string,
  appId: string,
  scopes: readonly ProactiveScope[],
  batch: readonly BatchSegment[],
): Promise<Partial<Record<ProactiveScope, string>>> {
  const user = await sources.users.findById(userId);
  const name = user?.name ?? 'the user';
  const values: Partial<Record<ProactiveScope, string>> = {};
  if (scopes.includes('user_name')) values.user_name = name;
  if (scopes.includes('user_facts')) values.user_facts = await facts(sources, userId, name);
  if (scopes.includes('user_context')) values.user_context = await conversationContext(sources, userId, batch);
  if (scopes.includes('user_chat')) values.user_chat = await chat(sources, userId, appId);
  return values;
}

async function facts(sources: ContextSources, userId: string, name: string): Promise<string> {
  const memories = await sources.memories.recentContents(userId, FACTS);
  if (memories.length === 0) return '';
  return [`Facts known about ${name}:`, ...memories.map((m) => `- ${m.content}`)].join('\n');
}

/** The batch being discussed now, then the latest completed conversations' summaries. */
async function conversationContext(
  sources: ContextSources,
  userId: string,
  batch: readonly BatchSegment[],
): Promise<string> {
  const recent = await sources.conversations.list(userId, {
    statuses: ['completed'],
    includeDiscarded: false,
    limit: RECENT_CONVERSATIONS,
    offset: 0,
  });
  const parts: string[] = [];
  if (batch.length > 0) {
    parts.push(
      'Current conversation:',
      ...batch.map((s) => `${s.is_user ? 'User' : (s.speaker ?? 'Speaker')}: ${s.text}`),
    );
  }
  if (recent.length > 0) {
    parts.push(
      'Recent conversations:',
      ...recent.map(
        (c) => `- ${new Date(c.started_at ?? c.created_at).toISOString().slice(0, 10)} ${c.title}: ${c.overview}`,
      ),
    );
  }
  return parts.join('\n');
}

/** The app's last messages to the user, oldest first: the notifications it sent are its side of the chat. */
async function chat(sources: ContextSources, userId: string, appId: string): Promise<string> {
  const messages = await sources.notifications.recentFromApp(userId, appId, CHAT_MESSAGES);
  return messages
    .reverse()
    .map((m) => `(${formatUtc(m.created_at)}) AI: ${m.message}`)
    .join('\n');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function formatUtc(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} at ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}
