import { parse } from '../cli/client/args.js';
import { ClientError, EXIT } from '../cli/client/errors.js';
import { ApiClient } from '../cli/client/http.js';
import { loadClientSettings } from '../cli/client/settings.js';
import { UsageError } from '../cli/usage.js';
import { serveMcp } from './server.js';

/**
 * `keepsake mcp`: a Model Context Protocol server on stdio for the developer key in KEEPSAKE_API_KEY
 * (or the profile). The key's scopes, read once from `GET /v1/dev/key`, decide the tools offered.
 */
export async function runMcp(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const log = (message: string) => process.stderr.write(`${message}\n`);
  try {
    const { positionals } = parse(args, {});
    if (positionals.length > 0) throw new UsageError(`mcp takes no arguments (got ${positionals.join(' ')})`);
    const api = new ApiClient(loadClientSettings(env));
    const key = await api.json<{ scopes: string[] | null; name: string }>('GET', '/v1/dev/key');
    const scopes = key.scopes ?? [];
    log(`keepsake mcp: serving on stdio with key "${key.name}" (${scopes.join(', ') || 'no scopes'})`);
    await serveMcp(api, scopes, process.stdin, process.stdout, log);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof UsageError) {
      log(`keepsake: ${err.message}\n\nusage: keepsake mcp   (KEEPSAKE_URL, KEEPSAKE_API_KEY)`);
      return EXIT.usage;
    }
    if (err instanceof ClientError) {
      log(`keepsake mcp: ${err.message}`);
      return err.exitCode;
    }
    throw err;
  }
}
