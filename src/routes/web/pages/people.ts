import { Type } from 'typebox';
import type { Services } from '../../../context.js';
import type { PersonView } from '../../../domain/people/service.js';
import { errors } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { noticeFor, recordForm, Text } from '../forms.js';
import { html } from '../html.js';
import { redirect, sendPage } from '../layout.js';
import { currentUser } from '../user.js';

const tags = ['Web'];
const NameForm = Type.Object({ name: Text(200, 1) });

function personItem(p: PersonView) {
  const path = `/people/${encodeURIComponent(p.id)}`;
  return html`<li class="card item"><p class="title">${p.name}</p>
<details><summary>Rename or delete</summary>
<form method="post" action="${path}/edit" class="inline"><label for="n-${p.id}">Name</label><input id="n-${p.id}" name="name" value="${p.name}" required maxlength="200"><button type="submit">Save</button></form>
<form method="post" action="${path}/delete" data-confirm="Delete this person?"><button type="submit" class="danger">Delete</button></form>
</details></li>`;
}

export function registerPeoplePages(app: TypedApp, ctx: Services): void {
  const preHandler = ctx.auth.session();
  const people = ctx.people;

  app.get(
    '/people',
    {
      preHandler,
      schema: {
        hide: true,
        tags,
        summary: 'People',
        querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }),
        response: errors(422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const list = await people.list(user.uid);
      const body = html`<p class="hint">People you talk with. Transcript segments linked to a person show their name.</p>
<form method="post" action="/people" class="card inline"><label for="name">Name</label><input id="name" name="name" required maxlength="200"><button type="submit">Add person</button></form>
<ul class="list">${list.map(personItem)}</ul>${list.length === 0 ? html`<p class="meta">No people yet.</p>` : ''}`;
      return sendPage(
        reply,
        {
          title: 'People',
          active: '/people',
          signedIn: true,
          notice: noticeFor(request.query),
          scripts: ['enhance.js'],
        },
        body,
      );
    },
  );

  app.post(
    '/people',
    { preHandler, schema: { hide: true, tags, summary: 'Add a person', body: NameForm, response: errors(403, 422) } },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      await people.create(user.uid, request.body.name);
      return redirect(reply, '/people?done=created');
    },
  );

  app.post(
    '/people/:id/edit',
    {
      preHandler,
      schema: recordForm(tags, 'Rename a person', NameForm),
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      await people.rename(user.uid, request.params.id, request.body.name);
      return redirect(reply, '/people?done=saved');
    },
  );

  app.post(
    '/people/:id/delete',
    {
      preHandler,
      schema: recordForm(tags, 'Delete a person'),
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      await people.delete(user.uid, request.params.id);
      return redirect(reply, '/people?done=deleted');
    },
  );
}
