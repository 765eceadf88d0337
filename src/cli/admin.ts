import { parseArgs } from 'node:util';
import pino from 'pino';
import type { Config } from '../config.js';
import { type AppContext, createContext } from '../context.js';
import { DEV_SCOPES, isDevScope } from '../domain/keys/dev-keys.js';
import { AppError } from '../errors.js';
import { appAdminCommands } from './admin-apps.js';
import { csv, existingUser, requireOption, UsageError } from './usage.js';

export type AdminHandler = (ctx: AppContext, args: string[]) => Promise<Record<string, unknown>>;

/** `admin <noun> <verb>` handlers; the integrations feature adds `app create` and `app enable`. */
export const adminCommands = new Map<string, AdminHandler>([
  ['user create', createUser],
  ['user update', updateUser],
  ['key create', createKey],
  ['token create', createToken],
  ...appAdminCommands,
]);

/** What each admin command takes, for `--help` and for a usage error. */
const ADMIN_USAGE: Record<string, string> = {
  'user create': '--name NAME [--email EMAIL] [--timezone TZ]',
  'user update': '--uid UID [--name NAME] [--email EMAIL] [--timezone TZ]',
  'key create': `--uid UID [--name NAME] [--scopes s1,s2] (scopes: ${DEV_SCOPES.join(', ')}; default: the four :read scopes)`,
  'token create': '--uid UID [--ttl SECONDS]',
  'app create':
    '--name NAME [--owner UID] [--capabilities c1,c2] [--actions a1,a2] [--triggers-on EVENT] [--webhook-url URL] [--scopes s1,s2] [--memory-prompt TEXT]',
  'app enable': '--uid UID --app APP_ID',
};

/** DESIGN §5: admin commands share the server's config, print one JSON object on stdout, errors on stderr. */
export async function runAdmin(config: Config, args: string[]): Promise<number> {
  const [noun, verb, ...rest] = args;
  const command = `${noun ?? ''} ${verb ?? ''}`;
  const handler = adminCommands.get(command);
  if (!handler) throw new UsageError(`unknown admin command "${[noun, verb].filter(Boolean).join(' ')}"`);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`usage: keepsake admin ${command} ${ADMIN_USAGE[command] ?? ''}\n`);
    return 0;
  }
  const log = pino({ level: 'warn' }, pino.destination(2));
  const ctx = await createContext(config, { log, runJobs: false });
  try {
    const result = await handler(ctx, rest).catch((err: unknown) => {
      // node:util parseArgs rejects an unknown or malformed option: a usage error, not a crash.
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))
        throw new UsageError(
          `${(err as Error).message}; usage: keepsake admin ${command} ${ADMIN_USAGE[command] ?? ''}`,
        );
      throw err;
    });
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof AppError) {
      process.stderr.write(`keepsake: ${detailText(err.detail)}\n`);
      return 1;
    }
    throw err;
  } finally {
    await ctx.close();
  }
}

/** A 422's issues print as their messages; other details as they are. */
function detailText(detail: AppError['detail']): string {
  if (typeof detail === 'string') return detail;
  return Array.isArray(detail) ? detail.map((issue) => issue.msg).join('; ') : JSON.stringify(detail);
}

async function createUser(ctx: AppContext, args: string[]) {
  const { values } = parseArgs({
    args,
    options: { name: { type: 'string' }, email: { type: 'string' }, timezone: { type: 'string' } },
    strict: true,
  });
  const user = await ctx.users.create({
    name: requireOption(values, 'name'),
    email: values.email,
    timezone: values.timezone,
  });
  return { uid: user.uid, name: user.name };
}

async function updateUser(ctx: AppContext, args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      uid: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
      timezone: { type: 'string' },
    },
    strict: true,
  });
  const uid = await existingUser(ctx, requireOption(values, 'uid'));
  if (values.name === undefined && values.email === undefined && values.timezone === undefined)
    throw new UsageError('nothing to change: give --name, --email or --timezone');
  const user = await ctx.users.update(uid, { name: values.name, email: values.email, timezone: values.timezone });
  return { uid, name: user?.name, timezone: user?.timezone };
}

async function createKey(ctx: AppContext, args: string[]) {
  const { values } = parseArgs({
    args,
    options: { uid: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' } },
    strict: true,
  });
  const uid = await existingUser(ctx, requireOption(values, 'uid'));
  const scopes = csv(values.scopes);
  const unknown = scopes?.filter((s) => !isDevScope(s)) ?? [];
  if (unknown.length > 0)
    throw new UsageError(`unknown scope ${unknown.join(', ')}; available: ${DEV_SCOPES.join(', ')}`);
  const key = await ctx.keys.create(uid, values.name ?? 'admin', scopes ?? null);
  return { id: key.id, key: key.key, key_prefix: key.key_prefix, scopes: key.scopes };
}

async function createToken(ctx: AppContext, args: string[]) {
  const { values } = parseArgs({ args, options: { uid: { type: 'string' }, ttl: { type: 'string' } }, strict: true });
  const uid = await existingUser(ctx, requireOption(values, 'uid'));
  const ttl = values.ttl === undefined ? undefined : Number(values.ttl);
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl <= 0))
    throw new UsageError('--ttl must be a positive number of seconds');
  return { token: ctx.users.issueSessionToken(uid, ttl) };
}
