import { parseArgs } from 'node:util';
import { CLIENT_COMMANDS, clientUsage, runClient } from './cli/client/index.js';
import { UsageError } from './cli/usage.js';
import { ConfigError, loadConfig } from './config.js';

const USAGE = `usage: keepsake <command>

  serve                 run the HTTP/WebSocket server (npm start); PORT=8080 HOST=127.0.0.1 by default,
                        e.g. PORT=9000 keepsake serve
  worker [--concurrency N]
                        run background jobs (with LISTEN_FINALIZATION_DISPATCH_MODE=queue)
  admin user create --name NAME [--email E] [--timezone TZ]
  admin user update --uid UID [--name N] [--email E] [--timezone TZ]
  admin key create --uid UID [--name N] [--scopes s1,s2]
  admin token create --uid UID [--ttl SECONDS]
  admin app create --name N [--owner UID] [--capabilities c1,c2] [--actions a1,a2]
        [--triggers-on EVENT] [--webhook-url URL] [--scopes s1,s2] [--memory-prompt TEXT]
  admin app enable --uid UID --app APP_ID
  import FILE [--uid UID]   restore a Keepsake NDJSON export (GET /v1/dev/user/export)
  import --from URL --key omi_dev_… [--uid UID]
                        pull a user's data from a server speaking the Omi developer API
  models download [--dir DIR] [--url URL] [--sha256 HEX] [--speaker] [--speaker-url URL]
                        fetch the recommended sherpa-onnx models (default DIR: DATA_DIR/models)

API client (KEEPSAKE_URL, KEEPSAKE_API_KEY or ~/.config/keepsake/profile.json; see docs/cli.md):
${clientUsage()}
  mcp                   Model Context Protocol server on stdio (docs/mcp.md)

Configuration comes from the environment (see README: HOST, PORT, DATA_DIR, DATABASE_URL, …).`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command) throw new UsageError('a command is needed');
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // Client commands talk to a server over HTTP: they never read the server's configuration.
  if (CLIENT_COMMANDS.has(command)) return runClient(command, rest);
  if (command === 'mcp') return (await import('./mcp/index.js')).runMcp(rest);
  const config = loadConfig();
  // docs/deployment.md: every file the server writes is its account's alone, including the ones
  // libraries create themselves (SQLite's -wal and -shm, tar's unpacked models).
  process.umask(0o077);
  if (command === 'serve' || command === 'worker' || command === 'admin' || command === 'import') {
    await (await import('./cli/startup.js')).preflight(config);
  }
  // The server modules load on demand, so client commands and --help start without the whole server graph.
  switch (command) {
    case 'serve':
      return (await import('./cli/serve.js')).runServe(config);
    case 'worker': {
      const { values } = parseArgs({ args: rest, options: { concurrency: { type: 'string' } }, strict: true });
      return (await import('./cli/worker.js')).runWorker(config, values.concurrency);
    }
    case 'admin':
      return (await import('./cli/admin.js')).runAdmin(config, rest);
    case 'import':
      return (await import('./cli/import.js')).runImport(config, rest);
    case 'models':
      return (await import('./cli/models.js')).runModels(config, rest);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

// `keepsake … | head` closes the pipe early: the reader has what it wanted, so stop quietly.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(0);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof ConfigError) {
      process.stderr.write(`keepsake: configuration error: ${err.message}\n`);
      process.exitCode = 78;
    } else if (err instanceof UsageError) {
      process.stderr.write(`keepsake: ${err.message} (keepsake --help lists the commands)\n`);
      process.exitCode = 2;
    } else {
      process.exitCode = 1;
      return import('pino').then(({ default: pino }) => {
        pino({ level: 'error' }, pino.destination(2)).error({ err }, 'keepsake failed');
        process.stderr.write(`keepsake: ${err instanceof Error ? err.message : String(err)}\n`);
      });
    }
  },
);
