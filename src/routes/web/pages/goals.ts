import { Type } from 'typebox';
import type { Services } from '../../../context.js';
import { GOAL_TYPES, type GoalView, MAX_ACTIVE_GOALS } from '../../../domain/goals/service.js';
import { errors } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { filled, NumberText, noticeFor, numberOrUndefined, OptionalText, recordForm, Text } from '../forms.js';
import { html } from '../html.js';
import { redirect, sendPage } from '../layout.js';
import { currentUser } from '../user.js';

const tags = ['Web'];
const Required = Type.String({ pattern: '^\\s*-?\\d+(\\.\\d+)?\\s*$', maxLength: 32 });

function goalItem(g: GoalView) {
  const path = `/goals/${encodeURIComponent(g.id)}`;
  const unit = g.unit ? ` ${g.unit}` : '';
  return html`<li class="card item${g.is_active ? '' : ' muted'}"><p class="title">${g.title}${g.is_active ? '' : html` <span class="badge">inactive</span>`}</p>
<label class="meta" for="p-${g.id}">${g.current_value}${unit} of ${g.target_value}${unit} (${g.goal_type})</label>
<progress id="p-${g.id}" value="${Math.max(0, g.current_value - g.min_value)}" max="${Math.max(1, g.target_value - g.min_value)}"></progress>
<form method="post" action="${path}/progress" class="inline"><label for="v-${g.id}">New value</label><input id="v-${g.id}" name="value" inputmode="decimal" required value="${g.current_value}" size="6"><button type="submit">Record</button></form>
<details><summary>Edit or delete</summary>
<form method="post" action="${path}/edit" class="inline"><label for="t-${g.id}">Title</label><input id="t-${g.id}" name="title" value="${g.title}" required maxlength="500">
<label for="tv-${g.id}">Target</label><input id="tv-${g.id}" name="target_value" inputmode="decimal" value="${g.target_value}" size="6">
<label for="u-${g.id}">Unit</label><input id="u-${g.id}" name="unit" value="${g.unit ?? ''}" maxlength="64" size="8"><button type="submit">Save</button></form>
<form method="post" action="${path}/delete" data-confirm="Delete this goal?"><button type="submit" class="danger">Delete</button></form>
</details></li>`;
}

function createForm() {
  return html`<form method="post" action="/goals" class="card inline"><h2 class="wide">New goal</h2>
<label for="g-title">Title</label><input id="g-title" name="title" required maxlength="500">
<label for="g-type">Type</label><select id="g-type" name="goal_type">${GOAL_TYPES.map((t) => html`<option value="${t}"${t === 'scale' ? html` selected` : ''}>${t}</option>`)}</select>
<label for="g-target">Target</label><input id="g-target" name="target_value" inputmode="decimal" required size="6">
<label for="g-unit">Unit</label><input id="g-unit" name="unit" maxlength="64" size="8">
<button type="submit">Create</button>
<p class="hint wide">At most ${MAX_ACTIVE_GOALS} goals are active; a new one deactivates the oldest.</p></form>`;
}

export function registerGoalPages(app: TypedApp, ctx: Services): void {
  const preHandler = ctx.auth.session();

  app.get(
    '/goals',
    {
      preHandler,
      schema: {
        hide: true,
        tags,
        summary: 'Goals',
        querystring: Type.Object({
          all: Type.Optional(Type.Enum(['0', '1'])),
          done: Type.Optional(Type.String({ maxLength: 20 })),
        }),
        response: errors(422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const all = request.query.all === '1';
      const goals = await ctx.goals.list(user.uid, all, 100);
      const body = html`${createForm()}
<p><a href="/goals${all ? '' : '?all=1'}">${all ? 'Show active goals only' : 'Show inactive goals too'}</a></p>
<ul class="list">${goals.map(goalItem)}</ul>${goals.length === 0 ? html`<p class="meta">No goals yet.</p>` : ''}`;
      return sendPage(
        reply,
        { title: 'Goals', active: '/goals', signedIn: true, notice: noticeFor(request.query), scripts: ['enhance.js'] },
        body,
      );
    },
  );

  app.post(
    '/goals',
    {
      preHandler,
      schema: {
        hide: true,
        tags,
        summary: 'Create a goal',
        body: Type.Object({
          title: Text(500, 1),
          goal_type: Type.Enum([...GOAL_TYPES]),
          target_value: Required,
          unit: OptionalText(64),
        }),
        response: errors(403, 422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const b = request.body;
      await ctx.goals.create(user.uid, {
        title: b.title,
        goal_type: b.goal_type,
        target_value: Number(b.target_value),
        unit: filled(b.unit) ?? null,
      });
      return redirect(reply, '/goals?done=created');
    },
  );

  app.post(
    '/goals/:id/progress',
    {
      preHandler,
      schema: recordForm(tags, 'Record progress', Type.Object({ value: Required })),
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      await ctx.goals.recordProgress(user.uid, request.params.id, Number(request.body.value));
      return redirect(reply, '/goals?done=progress');
    },
  );

  app.post(
    '/goals/:id/edit',
    {
      preHandler,
      schema: recordForm(
        tags,
        'Edit a goal',
        Type.Object({ title: Text(500, 1), target_value: NumberText, unit: OptionalText(64) }),
      ),
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const b = request.body;
      await ctx.goals.update(user.uid, request.params.id, {
        title: b.title,
        target_value: numberOrUndefined(b.target_value),
        unit: filled(b.unit) ?? null,
      });
      return redirect(reply, '/goals?done=saved');
    },
  );

  app.post('/goals/:id/delete', { preHandler, schema: recordForm(tags, 'Delete a goal') }, async (request, reply) => {
    const user = await currentUser(ctx, request);
    await ctx.goals.delete(user.uid, request.params.id);
    return redirect(reply, '/goals?done=deleted');
  });
}
