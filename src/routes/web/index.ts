import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../context.js';
import { AppError, type ValidationIssue } from '../../errors.js';
import type { TypedApp } from '../../http/typed-app.js';
import { registerFormParser } from './forms.js';
import { html } from './html.js';
import { redirect, sendPage } from './layout.js';
import { registerActionItemPages } from './pages/action-items.js';
import { registerAppPages } from './pages/apps.js';
import { registerAskPages } from './pages/ask.js';
import { registerConversationPages } from './pages/conversations.js';
import { registerFolderPages } from './pages/folders.js';
import { registerGoalPages } from './pages/goals.js';
import { registerKeyPages } from './pages/keys.js';
import { registerMemoryPages } from './pages/memories.js';
import { registerNotificationPages } from './pages/notifications.js';
import { registerOidcPages } from './pages/oidc.js';
import { registerPeoplePages } from './pages/people.js';
import { registerRecordPages } from './pages/record.js';
import { registerSignInPages } from './pages/sign-in.js';
import { crossSiteGuard } from './session.js';
import { registerStaticRoutes } from './static.js';

const PAGES = [
  registerSignInPages,
  registerOidcPages,
  registerConversationPages,
  registerAskPages,
  registerMemoryPages,
  registerActionItemPages,
  registerGoalPages,
  registerFolderPages,
  registerPeoplePages,
  registerAppPages,
  registerNotificationPages,
  registerKeyPages,
  registerRecordPages,
];

/**
 * The web app (DESIGN §2, docs/web.md): server-rendered pages whose forms post to the routes below,
 * authenticated by the HttpOnly session cookie. Pages call the services directly, as API routes do.
 */
export async function registerWebRoutes(app: TypedApp, ctx: Services): Promise<void> {
  app.addHook('onRequest', crossSiteGuard(ctx.config.publicUrl));
  registerStaticRoutes(app);
  await app.register(async (web: TypedApp) => {
    registerFormParser(web);
    web.setErrorHandler(webError);
    for (const register of PAGES) register(web, ctx);
  });
}

function messageOf(error: FastifyError | AppError): string {
  if (error instanceof AppError) {
    if (typeof error.detail === 'string') return error.detail;
    if (Array.isArray(error.detail)) return (error.detail as ValidationIssue[]).map((i) => i.msg).join('; ');
    return JSON.stringify(error.detail);
  }
  if (error.validation) {
    return error.validation
      .map((issue) => `${issue.instancePath.replace(/^\//, '') || 'form'}: ${issue.message ?? 'invalid'}`)
      .join('; ');
  }
  return error.message;
}

/** Errors on pages: 401 goes to the sign-in page, others render a page (JSON for fetch callers). */
function webError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  const status = error instanceof AppError ? error.statusCode : error.validation ? 422 : (error.statusCode ?? 500);
  const wantsJson = request.headers.accept?.includes('application/json') ?? false;
  if (status === 401 && !wantsJson) {
    const next = request.method === 'GET' ? request.url : '/conversations';
    return redirect(reply, `/sign-in?next=${encodeURIComponent(next)}`);
  }
  if (status >= 500) request.log.error({ err: error }, 'web page failed');
  const message = status >= 500 ? 'Something went wrong on the server; it has been logged.' : messageOf(error);
  if (wantsJson) return reply.code(status).send({ detail: message });
  return sendPage(
    reply,
    {
      title: status === 404 ? 'Not found' : 'That did not work',
      signedIn: request.session !== undefined,
      status,
      error: message,
    },
    html`<p><a href="/conversations">Back to your conversations</a></p>`,
  );
}
