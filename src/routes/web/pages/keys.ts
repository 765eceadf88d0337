import { Type } from 'typebox';
import type { Services } from '../../../context.js';
import { DEV_SCOPES, READ_ONLY_SCOPES } from '../../../domain/keys/dev-keys.js';
import type { DevKeyView } from '../../../domain/keys/service.js';
import { errors } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { formatTime } from '../format.js';
import { Checked, noticeFor, Text, values } from '../forms.js';
import { html, type SafeHtml } from '../html.js';
import { KeyFlash, type NewKey } from '../key-flash.js';
import { redirect, sendPage } from '../layout.js';
import { currentUser, type WebUser } from '../user.js';

const tags = ['Web'];

function keyRow(k: DevKeyView, user: WebUser) {
  return html`<tr><td>${k.name}</td><td><code>${k.key_prefix}</code></td><td>${k.scopes.join(', ')}</td>
<td>${formatTime(k.created_at, user.timezone)}</td><td>${k.last_used_at ? formatTime(k.last_used_at, user.timezone) : 'never'}</td>
<td><form method="post" action="/keys/${encodeURIComponent(k.id)}/revoke" data-confirm="Revoke this key? Programs using it stop working."><button type="submit" class="danger" aria-label="Revoke ${k.name}">Revoke</button></form></td></tr>`;
}

function createForm() {
  const defaults = new Set<string>(READ_ONLY_SCOPES);
  return html`<form method="post" action="/keys" class="card stack"><h2>Create a key</h2>
<label for="key-name">Name</label><input id="key-name" name="name" required maxlength="200" placeholder="e.g. my script">
<fieldset class="checks"><legend>Scopes (none checked: read-only)</legend>${DEV_SCOPES.map(
    (s) =>
      html`<label><input type="checkbox" name="scopes" value="${s}"${defaults.has(s) ? html` checked` : ''}> ${s}</label>`,
  )}</fieldset>
<button type="submit">Create key</button></form>`;
}

function createdKey(created: NewKey) {
  return html`<section class="card created" aria-labelledby="new-key-h"><h2 id="new-key-h">Your new key</h2>
<p>Copy it now: it is not shown again.</p>
<label for="new-key">Key for “${created.name}”</label><input id="new-key" class="secret" readonly value="${created.key}" spellcheck="false">
<button type="button" data-copy="new-key">Copy</button></section>`;
}

async function keysPage(ctx: Services, user: WebUser, created: SafeHtml | null) {
  const keys = await ctx.keys.list(user.uid);
  return html`${created ?? ''}${createForm()}
<div class="scroll" role="region" aria-labelledby="keys-h" tabindex="0"><h2 id="keys-h">Your keys</h2>
<table><thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${keys.map((k) => keyRow(k, user))}</tbody></table></div>
${keys.length === 0 ? html`<p class="meta">No keys yet.</p>` : ''}`;
}

/** Developer keys for `/v1/dev/...` (the CLI, the MCP server, scripts): created here, shown once. */
export function registerKeyPages(app: TypedApp, ctx: Services): void {
  const preHandler = ctx.auth.session();
  const flash = new KeyFlash(ctx);

  app.get(
    '/keys',
    {
      preHandler,
      schema: {
        hide: true,
        tags,
        summary: 'Developer API keys',
        querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }),
        response: errors(422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const created = flash.take(request, reply, user.uid);
      const body = await keysPage(ctx, user, created ? createdKey(created) : null);
      return sendPage(
        reply,
        {
          title: 'API keys',
          active: '/keys',
          signedIn: true,
          notice: created ? 'Key created.' : noticeFor(request.query),
          scripts: ['enhance.js'],
        },
        body,
      );
    },
  );

  app.post(
    '/keys',
    {
      preHandler,
      schema: {
        hide: true,
        tags,
        summary: 'Create a developer key (shown once, on the page the post redirects to)',
        body: Type.Object({ name: Text(200, 1), scopes: Checked }),
        response: errors(400, 403, 422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const scopes = values(request.body.scopes);
      const key = await ctx.keys.create(user.uid, request.body.name, scopes.length > 0 ? scopes : null);
      flash.give(request, reply, { uid: user.uid, name: key.name, key: key.key });
      return redirect(reply, '/keys');
    },
  );

  app.post(
    '/keys/:id/revoke',
    {
      preHandler,
      schema: {
        hide: true,
        tags,
        summary: 'Revoke a developer key',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: errors(403, 422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      await ctx.keys.revoke(user.uid, request.params.id);
      return redirect(reply, '/keys?done=revoked');
    },
  );
}
