import { Type } from 'typebox';
import type { Services } from '../../../context.js';
import { MEMORY_CATEGORIES, type MemoryCategory } from '../../../domain/categories.js';
import type { MemoryView } from '../../../domain/memories/views.js';
import { errors } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { formatTime } from '../format.js';
import { noticeFor, recordForm, Text } from '../forms.js';
import { html } from '../html.js';
import { redirect, sendPage } from '../layout.js';
import { currentUser, type WebUser } from '../user.js';

const tags = ['Web'];
const PAGE_SIZE = 50;
const Category = Type.Enum([...MEMORY_CATEGORIES]);
const Visibility = Type.Enum(['public', 'private']);
const MemoryForm = Type.Object({ content: Text(500, 1), category: Category, visibility: Visibility });

function options(values: readonly string[], selected: string) {
  return values.map((v) => html`<option value="${v}"${v === selected ? html` selected` : ''}>${v}</option>`);
}

function fields(prefix: string, memory: { content: string; category: string; visibility: string }) {
  return html`<label for="${prefix}-content">Memory</label><textarea id="${prefix}-content" name="content" required maxlength="500" rows="2">${memory.content}</textarea>
<div class="row"><span class="field"><label for="${prefix}-category">Category</label><select id="${prefix}-category" name="category">${options(MEMORY_CATEGORIES, memory.category)}</select></span>
<span class="field"><label for="${prefix}-visibility">Visibility</label><select id="${prefix}-visibility" name="visibility">${options(['private', 'public'], memory.visibility)}</select></span></div>`;
}

function memoryItem(m: MemoryView, user: WebUser) {
  const path = `/memories/${encodeURIComponent(m.id)}`;
  return html`<li class="card item"><p>${m.content}</p>
<p class="meta">${m.category} · ${m.visibility} · ${m.source} · ${formatTime(m.created_at, user.timezone)}</p>
<details><summary>Edit or delete</summary>
<form method="post" action="${path}/edit" class="stack">${fields(`m-${m.id}`, m)}<button type="submit">Save</button></form>
<form method="post" action="${path}/delete" data-confirm="Delete this memory?"><button type="submit" class="danger">Delete</button></form>
</details></li>`;
}

export function registerMemoryPages(app: TypedApp, ctx: Services): void {
  const preHandler = ctx.auth.session();

  app.get(
    '/memories',
    {
      preHandler,
      schema: {
        hide: true,
        tags,
        summary: 'Memories',
        querystring: Type.Object({
          q: Type.Optional(Type.String({ maxLength: 500 })),
          category: Type.Optional(Type.Union([Category, Type.Literal('')])),
          done: Type.Optional(Type.String({ maxLength: 20 })),
        }),
        response: errors(400, 422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const { q, category } = request.query;
      const memories = q?.trim()
        ? await ctx.search.memoriesMatching(user.uid, q, category || undefined, PAGE_SIZE, 0)
        : await ctx.memories.list(user.uid, category || undefined, PAGE_SIZE, 0);
      const body = html`<form method="post" action="/memories" class="card stack"><h2>Add a memory</h2>${fields('new', { content: '', category: 'manual', visibility: 'private' })}<button type="submit">Add memory</button></form>
<form method="get" action="/memories" class="card filters" role="search" aria-label="Filter memories">
<div class="field grow"><label for="q">Search</label><input id="q" name="q" type="search" value="${q ?? ''}"></div>
<div class="field"><label for="category">Category</label><select id="category" name="category"><option value="">All</option>${options(MEMORY_CATEGORIES, category ?? '')}</select></div>
<div class="actions"><button type="submit">Apply</button></div></form>
<ul class="list">${memories.map((m) => memoryItem(m, user))}</ul>
${memories.length === 0 ? html`<p class="meta">No memories yet.</p>` : ''}`;
      return sendPage(
        reply,
        {
          title: 'Memories',
          active: '/memories',
          signedIn: true,
          notice: noticeFor(request.query),
          scripts: ['enhance.js'],
        },
        body,
      );
    },
  );

  app.post(
    '/memories',
    { preHandler, schema: { hide: true, tags, summary: 'Add a memory', body: MemoryForm, response: errors(403, 422) } },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const { content, category, visibility } = request.body;
      await ctx.memories.create(user.uid, { content, category: category as MemoryCategory, visibility });
      return redirect(reply, '/memories?done=created');
    },
  );

  app.post(
    '/memories/:id/edit',
    {
      preHandler,
      schema: recordForm(tags, 'Edit a memory', MemoryForm),
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const { content, category, visibility } = request.body;
      await ctx.memories.update(user.uid, request.params.id, {
        content,
        category: category as MemoryCategory,
        visibility,
      });
      return redirect(reply, '/memories?done=saved');
    },
  );

  app.post(
    '/memories/:id/delete',
    {
      preHandler,
      schema: recordForm(tags, 'Delete a memory'),
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      await ctx.memories.delete(user.uid, request.params.id);
      return redirect(reply, '/memories?done=deleted');
    },
  );
}
