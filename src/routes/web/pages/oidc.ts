import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { OidcConfig } from '../../../config.js';
import type { Services } from '../../../context.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { html } from '../html.js';
import { redirect, sendPage } from '../layout.js';
import {
  isAttempt,
  newAttempt,
  type OidcAttempt,
  OidcRelyingParty,
  OidcSignInError,
  sameSecret,
} from '../oidc-client.js';
import { clearSealedCookie, readCookie, type SealedCookie, seal, setSealedCookie, unseal } from '../sealed.js';
import { BROWSER_SESSION_TTL_SECONDS, localPath, setSessionCookie } from '../session.js';
import { signInForm } from './sign-in.js';

const tags = ['Web'];
export const OIDC_CALLBACK_PATH = '/sign-in/oidc/callback';

/** SameSite=Lax: the callback is a top-level navigation from the provider's site, which Strict would drop. */
const ATTEMPT_COOKIE: SealedCookie = {
  name: 'keepsake_oidc',
  path: '/sign-in/oidc',
  sameSite: 'Lax',
  maxAgeSeconds: 600,
};

const Str = (max: number) => Type.Optional(Type.String({ maxLength: max }));

function secure(request: FastifyRequest, publicUrl: string | null): boolean {
  return request.protocol === 'https' || (publicUrl?.startsWith('https:') ?? false);
}

function redirectUri(oidc: OidcConfig, request: FastifyRequest, publicUrl: string | null): string {
  if (oidc.redirectUrl) return oidc.redirectUrl;
  const base = publicUrl ?? `${request.protocol}://${request.host}`;
  return new URL(OIDC_CALLBACK_PATH, base).toString();
}

function refused(reply: FastifyReply, oidc: OidcConfig, next: string, error: OidcSignInError) {
  return sendPage(reply, { title: 'Sign in', status: error.status, error: error.message }, signInForm(next, oidc));
}

/** The attempt this browser started, checked against the callback's `state`; it is single-use. */
function takeAttempt(ctx: Services, request: FastifyRequest, state: string | undefined): OidcAttempt {
  const sealed = readCookie(request, ATTEMPT_COOKIE.name);
  const attempt = sealed ? unseal(ctx.secret, ATTEMPT_COOKIE, sealed, ctx.clock.now()) : null;
  if (!isAttempt(attempt))
    throw new OidcSignInError(400, 'This sign-in attempt has expired or was started in another browser. Start again.');
  if (!state || !sameSecret(state, attempt.state))
    throw new OidcSignInError(
      400,
      "The sign-in response does not match this browser's attempt (state mismatch). Start again.",
    );
  return attempt;
}

interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
}

async function finishSignIn(ctx: Services, party: OidcRelyingParty, request: FastifyRequest) {
  const query = request.query as CallbackQuery;
  const attempt = takeAttempt(ctx, request, query.state);
  if (query.error)
    throw new OidcSignInError(
      401,
      `The identity provider did not sign you in: ${query.error_description ?? query.error}`,
    );
  if (!query.code) throw new OidcSignInError(400, 'The identity provider sent no sign-in code. Start again.');
  const claims = await party.finish(attempt, new URL(request.url, 'http://callback').search);
  return { uid: await ctx.users.userForOidcClaims(claims), next: attempt.next };
}

interface Flow {
  ctx: Services;
  oidc: OidcConfig;
  party: OidcRelyingParty;
}

/** Redirects to the provider's authorization endpoint with a new attempt sealed in a cookie. */
async function start(flow: Flow, request: FastifyRequest<{ Querystring: { next?: string } }>, reply: FastifyReply) {
  const { ctx, oidc } = flow;
  const next = localPath(request.query.next);
  const publicUrl = ctx.config.publicUrl;
  const attempt = newAttempt(next, redirectUri(oidc, request, publicUrl));
  let location: string;
  try {
    location = await flow.party.authorizationUrl(attempt);
  } catch (error) {
    if (error instanceof OidcSignInError) return refused(reply, oidc, next, error);
    throw error;
  }
  const sealed = seal(ctx.secret, ATTEMPT_COOKIE, attempt, ctx.clock.now());
  setSealedCookie(reply, ATTEMPT_COOKIE, sealed, secure(request, publicUrl));
  return redirect(reply, location);
}

/** The provider's way back: the session cookie on success, else the sign-in page with the reason. */
async function callback(flow: Flow, request: FastifyRequest, reply: FastifyReply) {
  const publicUrl = flow.ctx.config.publicUrl;
  clearSealedCookie(reply, ATTEMPT_COOKIE, secure(request, publicUrl));
  try {
    const { uid, next } = await finishSignIn(flow.ctx, flow.party, request);
    const token = flow.ctx.users.issueSessionToken(uid, BROWSER_SESSION_TTL_SECONDS);
    setSessionCookie(reply, request, token, publicUrl);
    // A page, not a 303: the navigation began on the provider's site, and a redirect chain that
    // started there would not carry the new SameSite=Strict cookie to the next page.
    return sendPage(reply, { title: 'Signed in', redirectTo: next }, html`<p><a href="${next}">Continue</a></p>`);
  } catch (error) {
    if (error instanceof OidcSignInError) return refused(reply, flow.oidc, '/conversations', error);
    throw error;
  }
}

/** "Sign in with <issuer>": an authorization-code flow with PKCE, offered when OIDC_CLIENT_ID is set. */
export function registerOidcPages(app: TypedApp, ctx: Services): void {
  const oidc = ctx.config.oidc;
  if (!oidc?.clientId) return;
  const flow: Flow = { ctx, oidc, party: new OidcRelyingParty(oidc, oidc.clientId) };
  const startSchema = {
    hide: true,
    tags,
    summary: 'Start signing in with the identity provider',
    querystring: Type.Object({ next: Str(2000) }),
  };
  app.get('/sign-in/oidc', { schema: startSchema }, (request, reply) => start(flow, request, reply));
  const callbackQuery = Type.Object({ code: Str(4096), state: Str(512), error: Str(200), error_description: Str(500) });
  const callbackSchema = {
    hide: true,
    tags,
    summary: 'Where the identity provider returns',
    querystring: callbackQuery,
  };
  app.get(OIDC_CALLBACK_PATH, { schema: callbackSchema }, (request, reply) => callback(flow, request, reply));
}
