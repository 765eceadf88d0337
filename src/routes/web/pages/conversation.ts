import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { Services } from '../../../context.js';
import type { DeveloperConversation, SegmentView } from '../../../domain/conversations/views.js';
import type { FolderView } from '../../../domain/folders/service.js';
import { errors } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { formatTime, seconds } from '../format.js';
import { Id, noticeFor, recordForm, Text } from '../forms.js';
import { html } from '../html.js';
import { redirect, sendPage } from '../layout.js';
import { currentUser, type WebUser } from '../user.js';
import { actionItemRow } from './action-items.js';

const tags = ['Web'];
const Flag = Type.Enum(['true', 'false']);

function speakers(segments: SegmentView[]) {
  const bySpeaker = new Map<string, { segments: number; seconds: number }>();
  for (const s of segments) {
    const name = s.is_user ? 'You' : s.speaker_name;
    const entry = bySpeaker.get(name) ?? { segments: 0, seconds: 0 };
    entry.segments += 1;
    entry.seconds += Math.max(0, s.end - s.start);
    bySpeaker.set(name, entry);
  }
  return html`<ul class="speakers">${[...bySpeaker].map(
    ([name, e]) => html`<li><strong>${name}</strong>: ${e.segments} segments, ${seconds(e.seconds)} spoken</li>`,
  )}</ul>`;
}

function transcript(segments: SegmentView[], text: string | null) {
  // A conversation created from text has no segments: the text it was created from is its transcript.
  if (segments.length === 0 && text)
    return html`<div class="created-text">${text.split(/\n+/).map((line) => html`<p>${line}</p>`)}</div>`;
  if (segments.length === 0) return html`<p class="meta">No transcript.</p>`;
  return html`${speakers(segments)}<ol class="transcript">${segments.map(
    (s) =>
      html`<li><span class="speaker">${s.is_user ? 'You' : s.speaker_name}</span> <span class="meta">${seconds(s.start)}</span><p>${s.text}</p></li>`,
  )}</ol>`;
}

function summary(c: DeveloperConversation, user: WebUser) {
  const path = `/conversations/${encodeURIComponent(c.id)}`;
  const s = c.structured;
  return html`<p class="meta"><span class="badge">${c.status}</span>${c.discarded ? html` <span class="badge warn">discarded</span>` : ''}
 ${formatTime(c.started_at ?? c.created_at, user.timezone)}${c.finished_at ? ` – ${formatTime(c.finished_at, user.timezone)}` : ''}
 · ${s.category}${c.source ? ` · ${c.source}` : ''}${c.folder_name ? ` · folder ${c.folder_name}` : ''}${c.starred ? ' · ★ starred' : ''}</p>
<p class="overview">${s.overview}</p>
<section aria-labelledby="items-h"><h2 id="items-h">Action items</h2>${
    s.action_items.length === 0
      ? html`<p class="meta">None.</p>`
      : html`<ul class="list">${s.action_items.map((item) => actionItemRow(item, user, path))}</ul>`
  }</section>
${
  s.events.length > 0
    ? html`<section aria-labelledby="events-h"><h2 id="events-h">Events</h2><ul>${s.events.map(
        (e) => html`<li>${e.title}: ${formatTime(e.start, user.timezone)} (${e.duration} min)</li>`,
      )}</ul></section>`
    : ''
}`;
}

/** The conversation's audio when it was captured (audio_capture on): the MP3 artifact, signed for an hour. */
async function audioPlayer(ctx: Services, request: FastifyRequest, uid: string, id: string) {
  const base = (ctx.config.publicUrl ?? `${request.protocol}://${request.headers.host ?? 'localhost'}`).replace(
    /\/+$/,
    '',
  );
  const { conversation_audio: audio } = await ctx.audio.service.urls(uid, id, base);
  if (!audio) return '';
  const player =
    audio.status === 'cached' && audio.signed_url
      ? html`<audio controls preload="none" src="${audio.signed_url}" aria-describedby="audio-h"></audio>`
      : html`<p class="meta">The audio is being prepared; reload in a moment.</p>`;
  return html`<section aria-labelledby="audio-h"><h2 id="audio-h">Audio</h2>${player}</section>`;
}

function manage(c: DeveloperConversation, folders: FolderView[]) {
  const path = `/conversations/${encodeURIComponent(c.id)}`;
  return html`<section aria-labelledby="manage-h" class="card stack"><h2 id="manage-h">Manage</h2>
<form method="post" action="${path}/title" class="inline"><label for="title">Title</label><input id="title" name="title" value="${c.structured.title}" maxlength="500" required><button type="submit">Rename</button></form>
<form method="post" action="${path}/folder" class="inline"><label for="folder">Folder</label><select id="folder" name="folder"><option value="">No folder</option>${folders.map(
    (f) => html`<option value="${f.id}"${c.folder_id === f.id ? html` selected` : ''}>${f.name}</option>`,
  )}</select><button type="submit">Move</button></form>
<div class="row">
<form method="post" action="${path}/star"><input type="hidden" name="starred" value="${c.starred ? 'false' : 'true'}"><button type="submit">${c.starred ? 'Unstar' : 'Star'}</button></form>
<form method="post" action="${path}/discard"><input type="hidden" name="discarded" value="${c.discarded ? 'false' : 'true'}"><button type="submit">${c.discarded ? 'Restore' : 'Discard'}</button></form>
<form method="post" action="${path}/delete" data-confirm="Delete this conversation permanently?"><button type="submit" class="danger">Delete</button></form>
</div></section>`;
}

export function registerConversationDetailPages(app: TypedApp, ctx: Services): void {
  const preHandler = ctx.auth.session();

  app.get(
    '/conversations/:id',
    { preHandler, schema: { hide: true, tags, summary: 'One conversation', params: Id, response: errors(404, 422) } },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const { conversation: c, text } = await ctx.conversations.getWithText(user.uid, request.params.id, true);
      const folders = await ctx.folders.list(user.uid);
      const audio = await audioPlayer(ctx, request, user.uid, c.id);
      const segments = c.transcript_segments ?? [];
      const body = html`${summary(c, user)}
${audio}
<section aria-labelledby="transcript-h"><h2 id="transcript-h">Transcript</h2>${transcript(segments, text)}</section>
${manage(c, folders)}`;
      const busy = c.status === 'processing' || c.status === 'in_progress';
      return sendPage(
        reply,
        {
          title: `${c.structured.emoji} ${c.structured.title || 'Untitled conversation'}`,
          active: '/conversations',
          signedIn: true,
          notice: noticeFor(request.query),
          refreshSeconds: busy ? 5 : undefined,
          scripts: ['enhance.js'],
        },
        body,
      );
    },
  );

  const post = <B extends Record<string, unknown>>(
    action: string,
    body: TSchema,
    run: (uid: string, id: string, form: B) => Promise<string>,
  ) =>
    app.post(
      `/conversations/:id/${action}`,
      {
        preHandler,
        schema: recordForm(tags, `Conversation: ${action}`, body),
      },
      async (request, reply) => {
        const user = await currentUser(ctx, request);
        const done = await run(user.uid, request.params.id, request.body as B);
        const target =
          action === 'delete' ? '/conversations' : `/conversations/${encodeURIComponent(request.params.id)}`;
        return redirect(reply, `${target}?done=${done}`);
      },
    );

  post<{ title: string }>('title', Type.Object({ title: Text(500, 1) }), async (uid, id, form) => {
    await ctx.conversations.update(uid, id, { title: form.title });
    return 'saved';
  });
  post<{ folder: string }>('folder', Type.Object({ folder: Text(200) }), async (uid, id, form) => {
    await ctx.folders.moveConversation(uid, id, form.folder || null);
    return 'saved';
  });
  post<{ starred: 'true' | 'false' }>('star', Type.Object({ starred: Flag }), async (uid, id, form) => {
    await ctx.folders.setStarred(uid, id, form.starred === 'true');
    return 'saved';
  });
  post<{ discarded: 'true' | 'false' }>('discard', Type.Object({ discarded: Flag }), async (uid, id, form) => {
    await ctx.conversations.update(uid, id, { discarded: form.discarded === 'true' });
    return form.discarded === 'true' ? 'discarded' : 'restored';
  });
  post<Record<string, never>>('delete', Type.Object({}), async (uid, id) => {
    await ctx.conversations.delete(uid, id);
    return 'deleted';
  });
}
