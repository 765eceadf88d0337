import { Type } from 'typebox';
import type { Services } from '../../../context.js';
import { errors } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { type SpeechStatus, speechStatus } from '../../../providers/stt/select.js';
import { noticeFor } from '../forms.js';
import { html } from '../html.js';
import { redirect, sendPage } from '../layout.js';
import { LISTEN_TOKEN_TTL_SECONDS } from '../session.js';
import { currentUser } from '../user.js';

const tags = ['Web'];

/** Said before the user speaks: with no speech provider nothing they say is transcribed. */
const speechNotice = (speech: SpeechStatus) =>
  speech.provider
    ? html`<p class="hint" id="speech" data-provider="${speech.provider}">Speech recognition: ${speech.provider}.</p>`
    : html`<div class="error" id="speech" data-provider="" role="alert"><p><strong>This server has no speech recognition</strong>
(${speech.reason ?? 'none'}): you can record, but no transcript will appear.</p>
<p>To enable local speech recognition, run <code>sudo apt-get install pocketsphinx pocketsphinx-en-us</code> (Debian/Ubuntu) or
<code>keepsake models download</code> on the server and restart it; or set <code>DEEPGRAM_API_KEY</code> or <code>STT_BASE_URL</code>.</p></div>`;

const recorder = (
  capture: boolean,
  speech: SpeechStatus,
) => html`${speechNotice(speech)}<form method="post" action="/record/settings" class="card inline">
<input type="hidden" name="audio_capture" value="${capture ? 'false' : 'true'}">
<p class="wide">Audio is ${capture ? 'kept with each conversation (you can play it back).' : 'transcribed, not kept.'}</p>
<button type="submit">${capture ? "Don't keep audio" : 'Keep audio too'}</button></form>
<section class="card stack" aria-labelledby="rec-h"><h2 id="rec-h" class="visually-hidden">Recorder</h2>
<p class="hint">Your microphone is streamed to this server, which transcribes it as you speak. When you stop, the
conversation is summarized after a pause (at least two minutes of silence); keep this page open to see the result, or find it later under Conversations (a recording with no words in it is not kept).</p>
<div class="row"><button type="button" id="start">Start recording</button><button type="button" id="stop" disabled>Stop recording</button></div>
<p id="status" role="status" aria-live="polite">Ready when you are.</p>
<label for="level">Input level</label><meter id="level" min="0" max="1" value="0"></meter>
</section>
<section aria-labelledby="live-h"><h2 id="live-h">Live transcript</h2><ol id="transcript" class="transcript" aria-live="polite"></ol></section>
<section id="result" class="card" hidden aria-labelledby="result-h"><h2 id="result-h">Conversation</h2><p id="result-text"></p><p><a id="result-link" href="/conversations">Open the conversation</a></p></section>
<section aria-labelledby="events-h"><h2 id="events-h">Events</h2><ol id="events" class="events"></ol></section>`;

/** `/record`: the browser recorder (record.js + pcm-worklet.js) streaming to `/v4/web/listen`. */
export function registerRecordPages(app: TypedApp, ctx: Services): void {
  const preHandler = ctx.auth.session();

  app.get(
    '/record',
    { preHandler, schema: { hide: true, tags, summary: 'Record in the browser', response: errors(422) } },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const { audio_capture } = await ctx.audio.service.settings(user.uid);
      return sendPage(
        reply,
        {
          title: 'Record',
          active: '/record',
          signedIn: true,
          scripts: ['record.js'],
          notice: noticeFor(request.query),
        },
        recorder(audio_capture, speechStatus(ctx.listen.chooseStt())),
      );
    },
  );

  app.post(
    '/record/settings',
    {
      preHandler,
      schema: {
        hide: true,
        tags,
        summary: 'Keep or stop keeping the audio of live recordings (audio_capture)',
        body: Type.Object({ audio_capture: Type.Enum(['true', 'false']) }),
        response: errors(403, 422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      await ctx.audio.service.updateSettings(user.uid, { audio_capture: request.body.audio_capture === 'true' });
      return redirect(reply, '/record?done=saved');
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
      return {
        token: ctx.users.issueSessionToken(user.uid, LISTEN_TOKEN_TTL_SECONDS),
        expires_in: LISTEN_TOKEN_TTL_SECONDS,
      };
    },
  );
}
