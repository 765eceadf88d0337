import { type Static, Type } from 'typebox';
import type { Services } from '../../../context.js';
import type { AskAnswer } from '../../../domain/ask/service.js';
import { errors } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { formatTime } from '../format.js';
import { html } from '../html.js';
import { sendPage } from '../layout.js';
import { currentUser, type WebUser } from '../user.js';

const AskQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 1000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
});
type AskQuery = Static<typeof AskQuery>;

function askForm(query: AskQuery) {
  return html`<form method="get" action="/ask" class="card" role="search" aria-label="Ask your conversations">
<div class="field grow"><label for="q">Question</label><input id="q" name="q" type="search" maxlength="1000" required value="${query.q ?? ''}" placeholder="What did I promise Maria last week?"></div>
<div class="actions"><button type="submit">Ask</button></div>
</form>`;
}

/** The answer as written (line breaks kept), then its sources in the order the answer cites them. */
function answerSection(result: AskAnswer, user: WebUser) {
  return html`<section class="card" aria-labelledby="answer-heading">
<h2 id="answer-heading">Answer</h2>
<p class="answer">${result.answer}</p>
${
  result.sources.length > 0
    ? html`<h3>Sources</h3><ol class="sources">${result.sources.map(
        (s) =>
          html`<li><a href="/conversations/${encodeURIComponent(s.id)}">${s.title}</a> <span class="meta">${formatTime(s.created_at, user.timezone)}</span></li>`,
      )}</ol>`
    : ''
}
</section>`;
}

/** The "Ask" page (docs/web.md): the developer API's ask, answered in the user's own time zone. */
export function registerAskPages(app: TypedApp, ctx: Services): void {
  app.get(
    '/ask',
    {
      preHandler: ctx.auth.session(),
      schema: {
        hide: true,
        tags: ['Web'],
        summary: 'Ask your conversations',
        querystring: AskQuery,
        response: errors(400, 422),
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx, request);
      const question = request.query.q?.trim();
      const result = question
        ? await ctx.ask.ask(user.uid, { question, limit: request.query.limit ?? 5, timezone: user.timezone })
        : null;
      const body = html`${askForm(request.query)}
${result ? answerSection(result, user) : html`<p class="meta">Answers come only from your own conversations, with the ones used listed as sources. Dates like "yesterday" or "last week" are read in your time zone (${user.timezone}).</p>`}`;
      return sendPage(reply, { title: 'Ask', active: '/ask', signedIn: true }, body);
    },
  );
}
