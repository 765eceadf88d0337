import { Type } from 'typebox';
import type { AppContext } from '../../../context.js';
import { errors } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { currentUser } from '../index.js';
import { html } from '../html.js';
import { sendPage } from '../layout.js';
import { LISTEN_TOKEN_TTL_SECONDS } from '../session.js';

const tags = ['Web'];

const BODY = html`<section class="card stack" aria-labelledby="rec-h"><h2 id="rec-h" class="visually-hidden">Recorder</h2>
<p class="hint">Your microphone is streamed to this server, which transcribes it as you speak. When you stop, the
conversation is summarized after a pause (at least two minutes of silence); keep this page open to see the result, or find it later under Conversations.</p>
<div class="row"><button type="button" id="start">Start recording</button><button type="button" id="stop" disabled>Stop</button></div>
<p id="status" role="status" aria-live="polite">Ready when you are.</p>
<label for="level">Input level</label><meter id="level" min="0" max="1" value="0"></meter>
</section>
<section aria-labelledby="live-h"><h2 id="live-h">Live transcript</h2><ol id="transcript" class="transcript" aria-live="polite"></ol></section>
<section id="result" class="card" hidden aria-labelledby="result-h"><h2 id="result-h">Conversation</h2><p id="result-text"></p><p><a id="result-link" href="/conversations">Open the conversation</a></p></section>
<section aria-labelledby="events-h"><h2 id="events-h">Events</h2><ol id="events" class="events"></ol></section>`;

/** `/record`: the browser recorder (record.js + pcm-worklet.js) streaming to `/v4/web/listen`. */
export function registerRecordPages(app: TypedApp, ctx: AppContext): void {
  const preHandler = ctx.auth.session();

  app.get(
    '/record',
    { preHandler, schema: { hide: true, tags, summary: 'Record in the browser', response: errors(422) } },
    async (request, reply) => {
      await currentUser(ctx, request);
      return sendPage(reply, { title: 'Record', active: '/record', signedIn: true, scripts: ['record.js'] }, BODY);
    },
  );

  app.post(
    '/record/token',
    {
      preHandler,
      schema: {
        hide: true,
        tags,
        summary: 'A short-lived session token for the first message of /v4/web/listen',
        response: { 200: Type.Object({ token: Type.String(), expires_in: Type.Integer() }), ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      reply.header('cache-control', 'no-store');
      return { token: ctx.users.issueSessionToken(user.uid, LISTEN_TOKEN_TTL_SECONDS), expires_in: LISTEN_TOKEN_TTL_SECONDS };
    },
  );
}
