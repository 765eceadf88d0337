import { Type } from 'typebox';
import type { OidcConfig } from '../../../config.js';
import type { Services } from '../../../context.js';
import { AppError, Detail } from '../../../errors.js';
import { errors } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { Text } from '../forms.js';
import { html } from '../html.js';
import { redirect, sendPage } from '../layout.js';
import {
  BROWSER_SESSION_TTL_SECONDS,
  clearSessionCookie,
  fromThisSite,
  localPath,
  setSessionCookie,
} from '../session.js';

const tags = ['Web'];

/** A link, not a form: CSP `form-action 'self'` would block a form whose redirect leaves the site. */
function providerButton(next: string, oidc: OidcConfig | null) {
  if (!oidc?.clientId) return '';
  const href = `/sign-in/oidc?next=${encodeURIComponent(next)}`;
  return html`<p class="card"><a class="button" href="${href}">Sign in with ${new URL(oidc.issuer).host}</a></p>
<p class="meta">Or paste a token:</p>`;
}

/** The sign-in page body: the identity-provider button when configured, and the token form. */
export function signInForm(next: string, oidc: OidcConfig | null) {
  return html`${providerButton(next, oidc)}<form method="post" action="/sign-in" class="card stack">
<input type="hidden" name="next" value="${next}">
<label for="token">Session token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required spellcheck="false" aria-describedby="token-help">
<p id="token-help" class="hint">The session token printed on the first start, or one from
<code>keepsake admin token create --uid UID</code>.${
    oidc ? html` An ID token from your identity provider (${oidc.issuer}) works too.` : ''
  }</p>
<button type="submit">Sign in</button>
</form>`;
}

export function registerSignInPages(app: TypedApp, ctx: Services): void {
  const oidc = ctx.config.oidc;

  app.get('/', { schema: { hide: true, tags, summary: 'Home: the conversation list' } }, async (_request, reply) =>
    redirect(reply, '/conversations'),
  );

  app.get(
    '/sign-in',
    {
      schema: {
        hide: true,
        tags,
        summary: 'Sign-in page',
        querystring: Type.Object({ next: Type.Optional(Type.String({ maxLength: 2000 })) }),
      },
    },
    async (request, reply) => sendPage(reply, { title: 'Sign in' }, signInForm(localPath(request.query.next), oidc)),
  );

  app.post(
    '/sign-in',
    {
      schema: {
        hide: true,
        tags,
        summary: 'Sign in with a session token (sets the HttpOnly session cookie)',
        body: Type.Object({ token: Text(8192), next: Type.Optional(Text(2000)) }),
        response: { ...errors(403, 422) },
      },
    },
    async (request, reply) => {
      // Login CSRF: a sign-in must come from this site's own form.
      if (request.headers.origin && !fromThisSite(request, ctx.config.publicUrl))
        throw new AppError(403, Detail.crossSiteRefused);
      const next = localPath(request.body.next);
      const token = request.body.token.trim();
      const uid = await ctx.users.resolveSessionToken(token);
      if (!uid) {
        // The first-start banner prints the developer key beside the session token: say which one this is.
        const error = /^(?:omi_dev_|sk_)/.test(token)
          ? 'That is an API key, for scripts and apps. Sign in with the session token (printed at first start, or: npx keepsake admin token create --uid UID).'
          : 'That token is not valid or has expired.';
        return sendPage(reply, { title: 'Sign in', status: 401, error }, signInForm(next, oidc));
      }
      setSessionCookie(
        reply,
        request,
        ctx.users.issueSessionToken(uid, BROWSER_SESSION_TTL_SECONDS),
        ctx.config.publicUrl,
      );
      return redirect(reply, next);
    },
  );

  app.post(
    '/sign-out',
    { schema: { hide: true, tags, summary: 'Sign out (clears the cookie)' } },
    async (_r, reply) => {
      clearSessionCookie(reply);
      return redirect(reply, '/sign-in');
    },
  );
}
