import { parseArgs } from 'node:util';
import pino from 'pino';
import type { Config } from '../config.js';
import { type AppContext, createContext } from '../context.js';
import { ImportService } from '../domain/export/import.js';
import { ImportsRepository } from '../store/repositories/imports.js';
import { developerApi, exportFile, ImportSourceError, type SourceState } from './import-sources.js';
import { UsageError } from './usage.js';

interface Tally {
  imported: number;
  skipped: number;
  failed: number;
}

/**
 * `keepsake import FILE [--uid UID]` restores a Keepsake NDJSON export; `keepsake import --from URL
 * --key omi_dev_… [--uid UID]` pulls a user's data from any server speaking the Omi developer API.
 * Progress on stderr, one JSON summary on stdout; rerunning resumes and imports nothing twice.
 */
export async function runImport(config: Config, args: string[]): Promise<number> {
  const { values, positionals } = parse(args);
  const file = positionals[0];
  if ((file === undefined) === (values.from === undefined))
    throw new UsageError('import needs an export FILE or --from URL');
  if (values.from !== undefined && !/^https?:\/\//.test(values.from))
    throw new UsageError('--from must be an http(s) URL');
  if (values.from !== undefined && !values.key)
    throw new UsageError('--from needs --key (a developer key of the source)');
  const log = pino({ level: 'warn' }, pino.destination(2));
  const ctx = await createContext(config, { log, runJobs: false });
  try {
    const uid = await targetUser(ctx, values.uid);
    const state: SourceState = { complete: false };
    const records = file ? exportFile(file, state) : developerApi(values.from ?? '', values.key ?? '', state);
    const service = new ImportService(new ImportsRepository(ctx.store.db, ctx.repos.conversations), ctx.clock);
    const tallies = new Map<string, Tally>();
    const progress = progressPrinter();
    let failures = 0;
    for await (const record of records) {
      const type = String(record.type);
      const tally = tallies.get(type) ?? { imported: 0, skipped: 0, failed: 0 };
      tallies.set(type, tally);
      try {
        const outcome = await service.importRecord(uid, record);
        if (outcome !== 'ignored') tally[outcome] += 1;
      } catch (err) {
        tally.failed += 1;
        if (++failures <= 10)
          process.stderr.write(
            `keepsake import: ${type} ${String(record.id)} not imported: ${(err as Error).message}\n`,
          );
      }
      progress(type, tally);
    }
    progress.done(tallies);
    if (!state.complete) process.stderr.write('keepsake import: the export has no trailer: it may be cut short\n');
    const summary = { uid, source: file ?? values.from, complete: state.complete, counts: Object.fromEntries(tallies) };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    return failures > 0 ? 1 : 0;
  } catch (err) {
    if (!(err instanceof ImportSourceError)) throw err;
    process.stderr.write(`keepsake import: ${err.message}; rerun to resume\n`);
    return 1;
  } finally {
    await ctx.close();
  }
}

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      options: { uid: { type: 'string' }, from: { type: 'string' }, key: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

/** --uid, or the only user of a personal server. */
async function targetUser(ctx: AppContext, uid: string | undefined): Promise<string> {
  if (uid !== undefined) {
    if (!(await ctx.users.exists(uid))) throw new UsageError(`no user ${uid} on this server`);
    return uid;
  }
  const users = await ctx.store.db.selectFrom('users').select('id').limit(2).execute();
  if (users.length !== 1)
    throw new UsageError(`--uid is needed: this server has ${users.length === 0 ? 'no' : 'several'} users`);
  return users[0].id;
}

/** A line per 100 records of a kind and at each kind's end, on stderr. */
function progressPrinter() {
  let current = '';
  let last: Tally | null = null;
  const line = (type: string, t: Tally) =>
    process.stderr.write(
      `import: ${type}: ${t.imported} imported, ${t.skipped} already here${t.failed ? `, ${t.failed} failed` : ''}\n`,
    );
  const print = (type: string, tally: Tally) => {
    if (type !== current && last) line(current, last);
    current = type;
    last = tally;
    if ((tally.imported + tally.skipped + tally.failed) % 100 === 0) line(type, tally);
  };
  return Object.assign(print, {
    done(tallies: Map<string, Tally>) {
      if (last && (last.imported + last.skipped + last.failed) % 100 !== 0) line(current, last);
      if (tallies.size === 0) process.stderr.write('import: nothing to import\n');
    },
  });
}
