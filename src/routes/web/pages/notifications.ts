import type { Services } from '../../../context.js';
import type { NotificationView } from '../../../domain/notifications/service.js';
import { errors } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { formatTime } from '../format.js';
import { html } from '../html.js';
import { sendPage } from '../layout.js';
import { currentUser, type WebUser } from '../user.js';

function notificationItem(n: NotificationView, user: WebUser) {
  return html`<li class="card item"><p class="title">${n.title}</p><p>${n.message}</p>
<p class="meta"><time datetime="${n.created_at}">${formatTime(n.created_at, user.timezone)}</time> · ${n.source}</p></li>`;
}

/** Stored notifications, with new ones added live from `/v1/notifications/stream` (notifications.js). */
export function registerNotificationPages(app: TypedApp, ctx: Services): void {
  app.get(
    '/notifications',
    {
      preHandler: ctx.auth.session(),
      schema: { hide: true, tags: ['Web'], summary: 'Notifications (live)', response: errors(422) },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const list = await ctx.integrations.notifications.list(user.uid, 50, 0);
      const body = html`<p class="meta" id="live-status" role="status">Connecting to live updates…</p>
<ul class="list" id="notifications" aria-live="polite" aria-relevant="additions">${list.map((n) => notificationItem(n, user))}</ul>
<p class="meta" id="empty"${list.length > 0 ? html` hidden` : ''}>No notifications yet.</p>`;
      return sendPage(
        reply,
        { title: 'Notifications', active: '/notifications', signedIn: true, scripts: ['notifications.js'] },
        body,
      );
    },
  );
}
