import assert from 'node:assert/strict';
import type { TypedApp } from '../../src/http/typed-app.js';

/** app.inject() sends `Host: localhost:80`; a form on this site carries this Origin. */
export const SAME_ORIGIN = 'http://localhost:80';

export function form(fields: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) params.append(name, one);
  return params.toString();
}

/** Signs in through the sign-in form; returns the Cookie header value of the browser session. */
export async function signIn(app: TypedApp, token: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SAME_ORIGIN },
    payload: form({ token, next: '/conversations' }),
  });
  assert.equal(response.statusCode, 303, response.body);
  const cookie = String(response.headers['set-cookie']).split(';')[0];
  assert.match(cookie, /^keepsake_session=/);
  return cookie;
}

/** A same-site form post with the session cookie. */
export function post(
  app: TypedApp,
  cookie: string,
  url: string,
  fields: Record<string, string | string[]> = {},
  origin: string | null = SAME_ORIGIN,
) {
  return app.inject({
    method: 'POST',
    url,
    headers: {
      cookie,
      'content-type': 'application/x-www-form-urlencoded',
      ...(origin === null ? {} : { origin }),
    },
    payload: form(fields),
  });
}

export function page(app: TypedApp, cookie: string, url: string) {
  return app.inject({ method: 'GET', url, headers: { cookie } });
}

/**
 * A Set-Cookie line as its name=value and its attributes (order-free: RFC 6265 attributes carry no
 * order, and @fastify/cookie writes them in its own).
 */
export function parseSetCookie(line: string): { pair: string; attributes: Record<string, string | true> } {
  const [pair, ...rest] = line.split('; ');
  const attributes: Record<string, string | true> = {};
  for (const part of rest) {
    const at = part.indexOf('=');
    if (at === -1) attributes[part] = true;
    else attributes[part.slice(0, at)] = part.slice(at + 1);
  }
  return { pair, attributes };
}
