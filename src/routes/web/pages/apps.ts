import { Type } from 'typebox';
import type { Services } from '../../../context.js';
import type { AppView } from '../../../domain/apps/views.js';
import { errors } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { noticeFor, recordForm, Text } from '../forms.js';
import { html } from '../html.js';
import { redirect, sendPage } from '../layout.js';
import { currentUser } from '../user.js';

const tags = ['Web'];

function list(values: readonly string[] | null | undefined): string {
  return values && values.length > 0 ? values.join(', ') : 'none';
}

function appItem(a: AppView) {
  const path = `/apps/${encodeURIComponent(a.id)}`;
  const requested = a.proactive_notification?.scopes ?? [];
  return html`<li class="card item"><p class="title">${a.name} ${a.enabled ? html`<span class="badge ok">enabled</span>` : html`<span class="badge">disabled</span>`}${a.owned ? html` <span class="badge">yours</span>` : ''}</p>
${a.description ? html`<p>${a.description}</p>` : ''}
<dl class="facts"><dt>App id</dt><dd><code>${a.id}</code></dd>
<dt>Capabilities</dt><dd>${list(a.capabilities)}</dd>
<dt>Data access</dt><dd>${list(a.external_integration?.actions)}</dd>
<dt>Requested scopes</dt><dd>${list(requested)}</dd>
<dt>Granted scopes</dt><dd>${a.enabled ? list(a.granted_scopes) : 'none (not enabled)'}</dd></dl>
<form method="post" action="${path}/${a.enabled ? 'disable' : 'enable'}"><button type="submit"${a.enabled ? html` class="danger"` : ''}>${a.enabled ? 'Disable' : 'Enable'}</button></form>
</li>`;
}

export function registerAppPages(app: TypedApp, ctx: Services): void {
  const preHandler = ctx.auth.session();
  const { apps } = ctx.integrations;

  app.get(
    '/apps',
    {
      preHandler,
      schema: {
        hide: true,
        tags,
        summary: 'Apps',
        querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }),
        response: errors(422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const all = await apps.list(user.uid);
      const body = html`<p class="hint">Apps you own and apps you enabled. Enabling grants the app the scopes it requests; disabling ends its access at once.</p>
<form method="post" action="/apps/enable" class="card inline"><label for="app-id">Enable an app by id</label><input id="app-id" name="app_id" required maxlength="200" spellcheck="false"><button type="submit">Enable</button></form>
<ul class="list">${all.map(appItem)}</ul>${all.length === 0 ? html`<p class="meta">No apps yet.</p>` : ''}`;
      return sendPage(
        reply,
        { title: 'Apps', active: '/apps', signedIn: true, notice: noticeFor(request.query) },
        body,
      );
    },
  );

  app.post(
    '/apps/enable',
    {
      preHandler,
      schema: {
        hide: true,
        tags,
        summary: 'Enable an app by id',
        body: Type.Object({ app_id: Text(200, 1) }),
        response: errors(403, 404, 422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      await apps.enable(user.uid, request.body.app_id.trim());
      return redirect(reply, '/apps?done=enabled');
    },
  );

  for (const action of ['enable', 'disable'] as const) {
    app.post(
      `/apps/:id/${action}`,
      {
        preHandler,
        schema: recordForm(tags, `${action} an app`),
      },
      async (request, reply) => {
        const user = await currentUser(ctx, request);
        if (action === 'enable') await apps.enable(user.uid, request.params.id);
        else await apps.disable(user.uid, request.params.id);
        return redirect(reply, `/apps?done=${action}d`);
      },
    );
  }
}
