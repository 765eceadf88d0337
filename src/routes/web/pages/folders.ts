import { Type } from 'typebox';
import type { Services } from '../../../context.js';
import type { FolderView } from '../../../domain/folders/service.js';
import { errors } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { noticeFor, OptionalText, recordForm, Text } from '../forms.js';
import { html } from '../html.js';
import { redirect, sendPage } from '../layout.js';
import { currentUser } from '../user.js';

const tags = ['Web'];
const FolderForm = Type.Object({ name: Text(100, 1), description: OptionalText(500) });

function folderItem(f: FolderView) {
  const path = `/folders/${encodeURIComponent(f.id)}`;
  return html`<li class="card item"><a class="title" href="/conversations?folder=${encodeURIComponent(f.id)}">${f.name}</a>
<p class="meta">${f.conversation_count} conversation${f.conversation_count === 1 ? '' : 's'}${f.description ? ` · ${f.description}` : ''}</p>
<details><summary>Edit or delete</summary>
<form method="post" action="${path}/edit" class="inline"><label for="n-${f.id}">Name</label><input id="n-${f.id}" name="name" value="${f.name}" required maxlength="100">
<label for="d-${f.id}">Description</label><input id="d-${f.id}" name="description" value="${f.description ?? ''}" maxlength="500"><button type="submit">Save</button></form>
<form method="post" action="${path}/delete" data-confirm="Delete this folder? Its conversations stay."><button type="submit" class="danger">Delete</button></form>
</details></li>`;
}

export function registerFolderPages(app: TypedApp, ctx: Services): void {
  const preHandler = ctx.auth.session();

  app.get(
    '/folders',
    {
      preHandler,
      schema: {
        hide: true,
        tags,
        summary: 'Folders',
        querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }),
        response: errors(422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const folders = await ctx.folders.list(user.uid);
      const body = html`<form method="post" action="/folders" class="card inline"><label for="name">New folder</label><input id="name" name="name" required maxlength="100">
<label for="description">Description</label><input id="description" name="description" maxlength="500"><button type="submit">Create</button></form>
<ul class="list">${folders.map(folderItem)}</ul>${folders.length === 0 ? html`<p class="meta">No folders yet.</p>` : ''}`;
      return sendPage(
        reply,
        {
          title: 'Folders',
          active: '/folders',
          signedIn: true,
          notice: noticeFor(request.query),
          scripts: ['enhance.js'],
        },
        body,
      );
    },
  );

  app.post(
    '/folders',
    {
      preHandler,
      schema: { hide: true, tags, summary: 'Create a folder', body: FolderForm, response: errors(403, 422) },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      await ctx.folders.create(user.uid, { name: request.body.name, description: request.body.description || null });
      return redirect(reply, '/folders?done=created');
    },
  );

  app.post(
    '/folders/:id/edit',
    {
      preHandler,
      schema: recordForm(tags, 'Edit a folder', FolderForm),
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      await ctx.folders.update(user.uid, request.params.id, {
        name: request.body.name,
        description: request.body.description || null,
      });
      return redirect(reply, '/folders?done=saved');
    },
  );

  app.post(
    '/folders/:id/delete',
    {
      preHandler,
      schema: recordForm(tags, 'Delete a folder'),
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      await ctx.folders.delete(user.uid, request.params.id);
      return redirect(reply, '/folders?done=deleted');
    },
  );
}
