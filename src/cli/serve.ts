import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { type AppContext, createContext } from '../context.js';
import { DEFAULT_SESSION_TTL_SECONDS } from '../domain/users/session-tokens.js';
import { ENABLE_SPEECH, speechStatus } from '../providers/stt/select.js';
import { claimOwner } from './owner.js';
import { listenError } from './startup.js';

/** How long after listen the planner's statistics are refreshed (store.refreshStatistics). */
const STATISTICS_DELAY_MS = 1000;

export async function runServe(config: Config): Promise<number> {
  const ctx = await createContext(config, { runJobs: config.dispatchMode === 'inline' });
  const app = await buildApp(ctx);
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    await app.close().catch(() => {});
    await ctx.close().catch(() => {});
    throw listenError(err, config.host, config.port);
  }
  const speech = speechLine(ctx);
  if (speech.startsWith('none')) ctx.log.warn(`speech recognition: ${speech}`);
  else ctx.log.info(`speech recognition: ${speech}`);
  // After the port is bound: secrets printed by a server that then fails to start would be lost.
  await bootstrapOwner(ctx, speech);
  // Work that grows with the data waits until the server has answered its first probes (docs/deployment.md).
  const statistics = setTimeout(() => ctx.store.refreshStatistics(), STATISTICS_DELAY_MS);

  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      clearTimeout(statistics);
      ctx.log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
      const delay = config.ops.shutdownDelayMs;
      const force = setTimeout(() => {
        ctx.log.warn('shutdown took longer than the drain allows; exiting');
        process.exit(1);
      }, delay + 35_000);
      force.unref();
      (async () => {
        // docs/deployment.md: /readyz turns 503 first, so the load balancer stops routing here; then
        // app.close() stops accepting, closes listen sockets with 1001 (clients reconnect to another
        // node and resume their recording session) and waits for in-flight requests; ctx.close()
        // lets running jobs finish and complete their leases.
        ctx.ops.state.draining = true;
        if (delay > 0) await new Promise((done) => setTimeout(done, delay));
        // Before app.close(): the WebSocket plugin's own close hook would end sockets without a code (1005).
        await ctx.listen.drain();
        await app.close();
        await ctx.close();
      })()
        .catch((err) => ctx.log.error({ err }, 'error during shutdown'))
        .finally(() => {
          clearTimeout(force);
          resolve();
        });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return 0;
}

/**
 * First start with an empty database: create the owner account and print its uid, a developer key
 * (all scopes: it is the owner's own key) and a session token. They are shown once and never logged;
 * of several processes starting at once, exactly one creates and prints them (cli/owner.ts).
 */
async function bootstrapOwner(ctx: AppContext, speech: string): Promise<void> {
  const owner = await claimOwner(ctx);
  if (!owner) return;
  const token = ctx.users.issueSessionToken(owner.uid);
  const base = `http://${ctx.config.host.includes(':') ? `[${ctx.config.host}]` : ctx.config.host}:${ctx.config.port}`;
  process.stdout.write(
    [
      '',
      '================ Keepsake: first start ================',
      'An owner account was created. These secrets are shown ONCE; store them now.',
      `  uid:            ${owner.uid}`,
      `  developer key:  ${owner.key}   (all scopes)`,
      `  session token:  ${token}   (${Math.round(DEFAULT_SESSION_TTL_SECONDS / 86_400)} days)`,
      '',
      `  Try:  curl -H "Authorization: Bearer ${owner.key}" ${base}/v1/dev/user/conversations`,
      `  Web:  ${base}/   API docs: ${base}/docs`,
      `  Speech recognition: ${speech}`,
      '=======================================================',
      '',
    ].join('\n'),
  );
}

/** The active speech provider, or why there is none and how to enable one (README "Speech"). */
function speechLine(ctx: AppContext): string {
  const { provider, reason } = speechStatus(ctx.listen.chooseStt());
  return provider ?? `none (${reason}). To enable: ${ENABLE_SPEECH}`;
}
