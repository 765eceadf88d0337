import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { OidcConfig } from '../../../config.js';
import type { AppContext } from '../../../context.js';
import { OidcVerifier } from '../../../domain/users/oidc.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { html } from '../html.js';
import { redirect, sendPage } from '../layout.js';
import {
  authorizationUrl,
  exchangeCode,
  isAttempt,
  newAttempt,
  type OidcAttempt,
  OidcSignInError,
  sameSecret,
  verifyIdToken,
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
function takeAttempt(ctx: AppContext, request: FastifyRequest, state: string | undefined): OidcAttempt {
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

async function finishSignIn(ctx: AppContext, verifier: OidcVerifier, oidc: OidcConfig, request: FastifyRequest) {
  const query = request.query as CallbackQuery;
  const attempt = takeAttempt(ctx, request, query.state);
  if (query.error)
    throw new OidcSignInError(
      401,
      `The identity provider did not sign you in: ${query.error_description ?? query.error}`,
    );
  if (!query.code) throw new OidcSignInError(400, 'The identity provider sent no sign-in code. Start again.');
  const clientId = oidc.clientId ?? '';
  const { token } = await verifier.endpoints().catch(() => {
    throw new OidcSignInError(502, 'The identity provider could not be reached. Try again in a moment.');
  });
  const idToken = await exchangeCode(oidc, clientId, token, attempt, query.code);
  const claims = await verifyIdToken(verifier, idToken, clientId, attempt.nonce, ctx.clock.now());
  return { uid: await ctx.users.userForOidcClaims(claims), next: attempt.next };
}

/** "Sign in with <issuer>": an authorization-code flow with PKCE, offered when OIDC_CLIENT_ID is set. */
export function registerOidcPages(app: TypedApp, ctx: AppContext): void {
  const oidc = ctx.config.oidc;
  if (!oidc?.clientId) return;
  const clientId = oidc.clientId;
  const verifier = new OidcVerifier(oidc.issuer, clientId);
  const publicUrl = ctx.config.publicUrl;

  app.get(
    '/sign-in/oidc',
    {
      schema: {
        hide: true,
        tags,
        summary: 'Start signing in with the identity provider',
        querystring: Type.Object({ next: Str(2000) }),
      },
    },
    async (request, reply) => {
      const next = localPath(request.query.next);
      const endpoints = await verifier.endpoints().catch(() => null);
      if (!endpoints)
        return refused(
          reply,
          oidc,
          next,
          new OidcSignInError(502, 'The identity provider could not be reached. Try again in a moment.'),
        );
      const attempt = newAttempt(next, redirectUri(oidc, request, publicUrl));
      setSealedCookie(
        reply,
        ATTEMPT_COOKIE,
        seal(ctx.secret, ATTEMPT_COOKIE, attempt, ctx.clock.now()),
        secure(request, publicUrl),
      );
      return redirect(reply, authorizationUrl(endpoints.authorization, clientId, attempt));
    },
  );

  app.get(
    OIDC_CALLBACK_PATH,
    {
      schema: {
        hide: true,
        tags,
        summary: 'Where the identity provider returns after sign-in',
        querystring: Type.Object({ code: Str(4096), state: Str(512), error: Str(200), error_description: Str(500) }),
      },
    },
    async (request, reply) => {
      clearSealedCookie(reply, ATTEMPT_COOKIE, secure(request, publicUrl));
      try {
        const { uid, next } = await finishSignIn(ctx, verifier, oidc, request);
        setSessionCookie(reply, request, ctx.users.issueSessionToken(uid, BROWSER_SESSION_TTL_SECONDS), publicUrl);
        // A page, not a 303: the navigation began on the provider's site, and a redirect chain that
        // started there would not carry the new SameSite=Strict cookie to the next page.
        return sendPage(reply, { title: 'Signed in', redirectTo: next }, html`<p><a href="${next}">Continue</a></p>`);
      } catch (error) {
        if (error instanceof OidcSignInError) return refused(reply, oidc, '/conversations', error);
        throw error;
      }
    },
  );
}
