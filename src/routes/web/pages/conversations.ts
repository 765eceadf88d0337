import { type Static, Type } from 'typebox';
import type { Services } from '../../../context.js';
import { CONVERSATION_CATEGORIES } from '../../../domain/categories.js';
import type { DeveloperConversation } from '../../../domain/conversations/views.js';
import type { FolderView } from '../../../domain/folders/service.js';
import { errors } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { dayBoundary, formatTime } from '../format.js';
import { noticeFor } from '../forms.js';
import { html } from '../html.js';
import { sendPage } from '../layout.js';
import { currentUser, type WebUser } from '../user.js';
import { registerConversationDetailPages } from './conversation.js';

const PAGE_SIZE = 20;
const Day = Type.Optional(Type.String({ pattern: '^(\\d{4}-\\d{2}-\\d{2})?$' }));

const ListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 500 })),
  start: Day,
  end: Day,
  category: Type.Optional(Type.Array(Type.Enum([...CONVERSATION_CATEGORIES]), { maxItems: 40 })),
  folder: Type.Optional(Type.String({ maxLength: 200 })),
  starred: Type.Optional(Type.Enum(['', 'true', 'false'])),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  done: Type.Optional(Type.String({ maxLength: 20 })),
});
type ListQuery = Static<typeof ListQuery>;

/** The API's list filters (SPEC §4.1), from the filter form; dates are whole days in the user's zone. */
function filterFrom(query: ListQuery, user: WebUser) {
  return {
    startDate: query.start ? dayBoundary(query.start, user.timezone, false) : undefined,
    endDate: query.end ? dayBoundary(query.end, user.timezone, true) : undefined,
    categories: query.category?.length ? query.category : undefined,
    folderId: query.folder || undefined,
    starred: query.starred ? query.starred === 'true' : undefined,
    limit: PAGE_SIZE + 1,
    offset: query.offset ?? 0,
  };
}

function filterForm(query: ListQuery, folders: FolderView[]) {
  const chosen = new Set(query.category ?? []);
  return html`<form method="get" action="/conversations" class="card filters" role="search" aria-label="Filter conversations">
<div class="field grow"><label for="q">Search</label><input id="q" name="q" type="search" value="${query.q ?? ''}" placeholder="Words in title, summary or transcript"></div>
<div class="field"><label for="start">From</label><input id="start" name="start" type="date" value="${query.start ?? ''}"></div>
<div class="field"><label for="end">To</label><input id="end" name="end" type="date" value="${query.end ?? ''}"></div>
<div class="field"><label for="folder">Folder</label><select id="folder" name="folder"><option value="">Any folder</option>${folders.map(
    (f) => html`<option value="${f.id}"${query.folder === f.id ? html` selected` : ''}>${f.name}</option>`,
  )}</select></div>
<div class="field"><label for="starred">Starred</label><select id="starred" name="starred">${(
    [
      ['', 'All'],
      ['true', 'Starred only'],
      ['false', 'Not starred'],
    ] as const
  ).map(
    ([v, l]) => html`<option value="${v}"${(query.starred ?? '') === v ? html` selected` : ''}>${l}</option>`,
  )}</select></div>
<details class="field wide"${chosen.size > 0 ? html` open` : ''}><summary>Categories${chosen.size > 0 ? ` (${chosen.size})` : ''}</summary>
<fieldset class="checks"><legend class="visually-hidden">Categories (any of)</legend>${CONVERSATION_CATEGORIES.map(
    (c) =>
      html`<label><input type="checkbox" name="category" value="${c}"${chosen.has(c) ? html` checked` : ''}> ${c}</label>`,
  )}</fieldset></details>
<div class="actions"><button type="submit">Apply</button> <a href="/conversations">Clear</a></div>
</form>`;
}

export function conversationItem(c: DeveloperConversation, user: WebUser) {
  return html`<li class="card item">
<a class="title" href="/conversations/${encodeURIComponent(c.id)}"><span aria-hidden="true">${c.structured.emoji}</span> ${c.structured.title || 'Untitled conversation'}</a>
<p class="meta"><time datetime="${c.started_at ?? c.created_at}">${formatTime(c.started_at ?? c.created_at, user.timezone)}</time> · ${c.structured.category}${
    c.folder_name ? ` · ${c.folder_name}` : ''
  }${c.starred ? html` · <span aria-label="starred">★</span>` : ''}</p>
<p>${c.structured.overview}</p>
</li>`;
}

function pager(query: ListQuery, hasMore: boolean) {
  const offset = query.offset ?? 0;
  const link = (to: number) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (k === 'offset' || k === 'done' || v === undefined || v === '') continue;
      for (const one of Array.isArray(v) ? v : [v]) params.append(k, String(one));
    }
    if (to > 0) params.set('offset', String(to));
    return `/conversations?${params.toString()}`;
  };
  return html`<nav class="pager" aria-label="Pages">${
    offset > 0 ? html`<a href="${link(Math.max(0, offset - PAGE_SIZE))}" rel="prev">← Newer</a>` : ''
  }${hasMore ? html`<a href="${link(offset + PAGE_SIZE)}" rel="next">Older →</a>` : ''}</nav>`;
}

export function registerConversationPages(app: TypedApp, ctx: Services): void {
  app.get(
    '/conversations',
    {
      preHandler: ctx.auth.session(),
      schema: {
        hide: true,
        tags: ['Web'],
        summary: 'Conversation list and search',
        querystring: ListQuery,
        response: errors(400, 422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const query = request.query;
      const filter = filterFrom(query, user);
      const q = query.q?.trim();
      const found = q
        ? await ctx.search.conversationsMatching(user.uid, q, filter, false)
        : await ctx.conversations.list(
            user.uid,
            { ...filter, statuses: ['completed'], includeDiscarded: false },
            false,
          );
      const folders = await ctx.folders.list(user.uid);
      const shown = found.slice(0, PAGE_SIZE);
      const body = html`${filterForm(query, folders)}
<p class="meta" role="status">${shown.length === 0 ? 'No conversations match.' : `${shown.length} shown${q ? ', best match first' : ', newest first'}.`} <a href="/record">Record a new one</a></p>
<ul class="list">${shown.map((c) => conversationItem(c, user))}</ul>
${pager(query, found.length > PAGE_SIZE)}`;
      return sendPage(
        reply,
        { title: 'Conversations', active: '/conversations', signedIn: true, notice: noticeFor(query) },
        body,
      );
    },
  );
  registerConversationDetailPages(app, ctx);
}
