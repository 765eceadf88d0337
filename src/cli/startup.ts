import type { Config } from '../config.js';
import { ConfigError } from '../config-env.js';
import { createDataDir } from '../store/data-dir.js';
import { loadPg } from '../store/db.js';

/**
 * Checks made before a server, worker or admin command opens anything, so that a bad setting ends the
 * start with one line naming it instead of a stack trace, a half-started server or a hang.
 */
export async function preflight(config: Config): Promise<void> {
  if (config.dataDir !== ':memory:') createDataDir(config.dataDir);
  if (config.databaseUrl) await reachDatabase(config.databaseUrl);
}

/** One connection to PostgreSQL, with a bounded wait, so an unreachable server is named at once. */
async function reachDatabase(databaseUrl: string): Promise<void> {
  const client = new (loadPg().Client)({ connectionString: databaseUrl, connectionTimeoutMillis: 15_000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
    throw new ConfigError(`DATABASE_URL=${redactedUrl(databaseUrl)}: PostgreSQL cannot be reached (${reason})`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The URL without its password, fit for an error message. */
export function redactedUrl(value: string): string {
  try {
    const parsed = new URL(value);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/** The listen() failure that a setting explains, named after that setting. */
export function listenError(err: unknown, host: string, port: number): Error {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EADDRINUSE':
      return new ConfigError(`PORT=${port} is already in use on ${host}: stop the other process or set PORT`);
    case 'EACCES':
      return new ConfigError(`PORT=${port} needs privileges on this machine: choose a port above 1023`);
    case 'EADDRNOTAVAIL':
      return new ConfigError(`HOST=${host} is not an address of this machine`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return new ConfigError(`HOST=${host} cannot be resolved (${code})`);
    default:
      return err instanceof Error ? err : new Error(String(err));
  }
}
