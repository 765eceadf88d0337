// Performance: the server-rendered conversation page against the JSON list it mirrors
// (same 20 conversations from 2,000) and against /healthz, all in one in-process server.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { type AppContext, createContext } from '../src/context.js';
import { DEV_SCOPES } from '../src/domain/keys/dev-keys.js';
import { fmt, load } from './support.js';

const CONVERSATIONS = 2_000;

async function seed(ctx: AppContext): Promise<{ key: string; token: string }> {
  const user = await ctx.users.create({ name: 'Bench', timezone: 'Europe/Berlin' });
  const key = await ctx.keys.create(user.uid, 'bench', [...DEV_SCOPES]);
  const start = Date.parse('2024-01-01T00:00:00Z');
  const rows = Array.from({ length: CONVERSATIONS }, (_, n) => ({
    id: randomUUID(),
    user_id: user.uid,
    created_at: start + n * 60_000,
    updated_at: start + n * 60_000,
    started_at: start + n * 60_000,
    finished_at: start + n * 60_000 + 300_000,
    status: 'completed',
    discarded: 0,
    starred: n % 10 === 0 ? 1 : 0,
    title: `Conversation number ${n} about <the> weekly plan & budget`,
    overview: 'We talked about the plan for the week, the budget review and the trip next month. '.repeat(2),
    category: 'work',
    emoji: '💼',
    language: 'en',
    source: 'omi',
    revision: 0,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await ctx.store.db
      .insertInto('conversations')
      .values(rows.slice(i, i + 500))
      .execute();
  return { key: key.key, token: ctx.users.issueSessionToken(user.uid) };
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const ctx = await createContext(testConfig(), { log: pino({ level: 'silent' }) });
  const app = await buildApp(ctx);
  try {
    const { key, token } = await seed(ctx);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const options = { duration: 5, connections: 20 };
    const health = await load({ ...options, url: `${base}/healthz` });
    const api = await load({
      ...options,
      url: `${base}/v1/dev/user/conversations?limit=20`,
      headers: { authorization: `Bearer ${key}` },
    });
    const page = await load({
      ...options,
      url: `${base}/conversations`,
      headers: { cookie: `keepsake_session=${token}` },
    });
    const css = await load({ ...options, url: `${base}/static/app.css` });
    const row = (label: string, r: typeof health) =>
      `${label.padEnd(34)} ${fmt(r.rps, 0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  non-2xx ${r.non2xx}`;
    return {
      name: 'web app pages (in-process, 20 connections)',
      lines: [
        row('GET /healthz (baseline)', health),
        row('GET /v1/dev/user/conversations (20)', api),
        row('GET /conversations page (20, HTML)', page),
        row('GET /static/app.css', css),
        `page / JSON list throughput: ${fmt(page.rps / api.rps, 2)}×; page / healthz: ${fmt(page.rps / health.rps, 3)}×`,
      ],
    };
  } finally {
    await app.close();
    await ctx.close();
  }
}
