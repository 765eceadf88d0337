import { Type } from 'typebox';
import type { Services } from '../../../context.js';
import type { ActionItemView } from '../../../domain/action-items/service.js';
import { errors } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { formatTime, isoToLocalInput, zonedToIso } from '../format.js';
import { filled, LocalDateTime, noticeFor, OptionalText, recordForm, Text, withDone } from '../forms.js';
import { html } from '../html.js';
import { redirect, sendPage } from '../layout.js';
import { localPath } from '../session.js';
import { currentUser, type WebUser } from '../user.js';

const tags = ['Web'];
const PAGE_SIZE = 50;
const Back = OptionalText(2000);

/** One action item with its controls; `back` is the page the forms return to. */
export function actionItemRow(item: ActionItemView, user: WebUser, back: string) {
  const path = `/action-items/${encodeURIComponent(item.id)}`;
  const dueId = `due-${item.id}`;
  return html`<li class="card item action-item${item.completed ? ' done' : ''}">
<form method="post" action="${path}/complete" class="inline"><input type="hidden" name="back" value="${back}"><input type="hidden" name="completed" value="${item.completed ? 'false' : 'true'}">
<button type="submit" class="check" aria-label="${item.completed ? 'Reopen' : 'Mark as done'}: ${item.description}">${item.completed ? '☑' : '☐'}</button></form>
<span class="desc">${item.description}</span>
${item.due_at ? html`<span class="meta">due <time datetime="${item.due_at}">${formatTime(item.due_at, user.timezone)}</time></span>` : ''}
${item.conversation_id && !back.startsWith('/conversations/') ? html`<a class="meta" href="/conversations/${encodeURIComponent(item.conversation_id)}">from a conversation</a>` : ''}
<details><summary>Due date, delete</summary>
<form method="post" action="${path}/due" class="inline"><input type="hidden" name="back" value="${back}">
<label for="${dueId}">Due</label><input id="${dueId}" name="due" type="datetime-local" value="${isoToLocalInput(item.due_at, user.timezone)}">
<button type="submit">Save due date</button><button type="submit" name="clear" value="1">Clear</button></form>
<form method="post" action="${path}/delete" class="inline" data-confirm="Delete this action item?"><input type="hidden" name="back" value="${back}"><button type="submit" class="danger">Delete</button></form>
</details></li>`;
}

const SHOW = ['open', 'done', 'all'] as const;

function addForm() {
  return html`<form method="post" action="/action-items" class="card inline">
<label for="description">New action item</label><input id="description" name="description" required maxlength="500">
<label for="new-due">Due (optional)</label><input id="new-due" name="due" type="datetime-local">
<button type="submit">Add</button></form>`;
}

export function registerActionItemPages(app: TypedApp, ctx: Services): void {
  const preHandler = ctx.auth.session();

  app.get(
    '/action-items',
    {
      preHandler,
      schema: {
        hide: true,
        tags,
        summary: 'Action items',
        querystring: Type.Object({
          show: Type.Optional(Type.Enum([...SHOW])),
          done: Type.Optional(Type.String({ maxLength: 20 })),
        }),
        response: errors(422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const show = request.query.show ?? 'open';
      const completed = show === 'all' ? undefined : show === 'done';
      const items = await ctx.actionItems.list(user.uid, { completed, limit: PAGE_SIZE, offset: 0 });
      const back = `/action-items?show=${show}`;
      const body = html`${addForm()}
<nav class="tabs" aria-label="Show">${SHOW.map(
        (s) => html`<a href="/action-items?show=${s}"${s === show ? html` aria-current="page"` : ''}>${s}</a>`,
      )}</nav>
<ul class="list">${items.map((item) => actionItemRow(item, user, back))}</ul>
${items.length === 0 ? html`<p class="meta">Nothing here.</p>` : ''}`;
      return sendPage(
        reply,
        {
          title: 'Action items',
          active: '/action-items',
          signedIn: true,
          notice: noticeFor(request.query),
          scripts: ['enhance.js'],
        },
        body,
      );
    },
  );

  app.post(
    '/action-items',
    {
      preHandler,
      schema: {
        hide: true,
        tags,
        summary: 'Add an action item',
        body: Type.Object({ description: Text(500, 1), due: LocalDateTime }),
        response: errors(403, 422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const due = filled(request.body.due);
      await ctx.actionItems.create(user.uid, {
        description: request.body.description,
        due_at: due ? zonedToIso(due, user.timezone) : null,
      });
      return redirect(reply, '/action-items?done=created');
    },
  );

  app.post(
    '/action-items/:id/complete',
    {
      preHandler,
      schema: recordForm(
        tags,
        'Check off or reopen',
        Type.Object({ completed: Type.Enum(['true', 'false']), back: Back }),
      ),
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const completed = request.body.completed === 'true';
      await ctx.actionItems.update(user.uid, request.params.id, { completed });
      return redirect(
        reply,
        withDone(localPath(request.body.back, '/action-items'), completed ? 'completed' : 'reopened'),
      );
    },
  );

  app.post(
    '/action-items/:id/due',
    {
      preHandler,
      schema: recordForm(
        tags,
        'Set or clear the due date',
        Type.Object({ due: LocalDateTime, clear: OptionalText(1), back: Back }),
      ),
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const due = filled(request.body.due);
      // SPEC §4.7: due_at null removes the due date.
      const dueAt = request.body.clear || !due ? null : zonedToIso(due, user.timezone);
      await ctx.actionItems.update(user.uid, request.params.id, { due_at: dueAt });
      return redirect(reply, withDone(localPath(request.body.back, '/action-items'), 'saved'));
    },
  );

  app.post(
    '/action-items/:id/delete',
    {
      preHandler,
      schema: recordForm(tags, 'Delete an action item', Type.Object({ back: Back })),
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      await ctx.actionItems.delete(user.uid, request.params.id);
      return redirect(reply, withDone(localPath(request.body.back, '/action-items'), 'deleted'));
    },
  );
}
