import type { FastifyReply } from 'fastify';
import { html, type SafeHtml } from './html.js';

export interface PageOptions {
  title: string;
  /** The nav entry to mark as current (its path), if any. */
  active?: string;
  /** Signed-in pages show the navigation and the sign-out button. */
  signedIn?: boolean;
  notice?: string | null;
  error?: string | null;
  /** Module scripts under /static/ this page loads. */
  scripts?: string[];
  status?: number;
  /** Reload the page after this many seconds (a conversation still being processed). */
  refreshSeconds?: number;
  /** Go to this local path at once (a same-site navigation, so SameSite=Strict cookies are sent). */
  redirectTo?: string;
}

const NAV: Array<[string, string]> = [
  ['/conversations', 'Conversations'],
  ['/ask', 'Ask'],
  ['/record', 'Record'],
  ['/memories', 'Memories'],
  ['/action-items', 'Action items'],
  ['/goals', 'Goals'],
  ['/folders', 'Folders'],
  ['/people', 'People'],
  ['/apps', 'Apps'],
  ['/notifications', 'Notifications'],
  ['/keys', 'API keys'],
];

// Everything the pages load comes from this server: no CDN, no inline script (docs/web.md).
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; media-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

function nav(active: string | undefined): SafeHtml {
  return html`<nav aria-label="Main"><ul class="nav">${NAV.map(
    ([href, label]) =>
      html`<li><a href="${href}"${active === href ? html` aria-current="page"` : ''}>${label}</a></li>`,
  )}</ul></nav>`;
}

function messages(options: PageOptions): SafeHtml {
  return html`${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}${
    options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''
  }`;
}

export function layout(options: PageOptions, body: SafeHtml): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Keepsake</title>
<link rel="stylesheet" href="/static/app.css">
<link rel="icon" href="data:,">
${options.refreshSeconds ? html`<meta http-equiv="refresh" content="${options.refreshSeconds}">` : ''}
${options.redirectTo ? html`<meta http-equiv="refresh" content="0;url=${options.redirectTo}">` : ''}
${(options.scripts ?? []).map((s) => html`<script type="module" src="/static/${s}"></script>`)}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="/conversations">Keepsake</a>
${
  options.signedIn
    ? html`${nav(options.active)}<form method="post" action="/sign-out" class="signout"><button type="submit" class="link">Sign out</button></form>`
    : ''
}
</header>
<main id="main" tabindex="-1">
<h1>${options.title}</h1>
${messages(options)}
${body}
</main>
</body>
</html>`;
}

/** Sends a full page with the security headers every page carries. */
export function sendPage(reply: FastifyReply, options: PageOptions, body: SafeHtml): FastifyReply {
  return reply
    .code(options.status ?? 200)
    .headers(SECURITY_HEADERS)
    .type('text/html; charset=utf-8')
    .send(layout(options, body).value);
}

/** Post/redirect/get: a form post answers 303 to the page that shows the result. */
export function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).send();
}
