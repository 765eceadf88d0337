import { accessSync, closeSync, constants, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Logger } from 'pino';
import { ConfigError } from '../config-env.js';

/** DATA_DIR holds every transcript: its directories are the server account's alone (docs/deployment.md). */
export const PRIVATE_DIR_MODE = 0o700;
/** …and so is every file the server writes there (the database and its -wal/-shm, audio, models, the secret). */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates DATA_DIR 0700 when it is missing; when it already exists and other accounts may enter or
 * read it, says so once with the fix (the operator's directory is never changed behind their back).
 */
export function prepareDataDir(dataDir: string, log: Logger): void {
  if (dataDir === ':memory:') return;
  createDataDir(dataDir);
  const mode = statSync(dataDir).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    log.warn(
      { dataDir, mode: mode.toString(8) },
      `DATA_DIR ${dataDir} is open to other accounts (mode ${mode.toString(8)}): they can read every transcript; fix: chmod 700 ${dataDir}`,
    );
  }
}

/** Creates an empty file 0600 unless it exists, so a library that opens it next (SQLite) keeps that mode. */
export function touchPrivateFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
}

/**
 * Creates DATA_DIR one level at a time (owner-only), and checks that it is a writable directory.
 * Not `mkdirSync(…, {recursive: true})`: on a pseudo filesystem such as /proc it never returns.
 */
export function createDataDir(dataDir: string): void {
  const target = resolve(dataDir);
  const missing: string[] = [];
  let existing = target;
  for (;;) {
    const kind = kindOf(existing);
    if (kind === 'directory') break;
    if (kind === 'other') {
      throw new ConfigError(`DATA_DIR=${dataDir}: ${existing} exists and is not a directory`);
    }
    missing.unshift(existing);
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && kindOf(dir) === 'directory') continue;
      throw new ConfigError(`DATA_DIR=${dataDir} cannot be created (${code ?? String(err)} at ${dir})`);
    }
  }
  try {
    accessSync(target, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (err) {
    throw new ConfigError(`DATA_DIR=${dataDir} is not writable by this user (${(err as NodeJS.ErrnoException).code})`);
  }
}

function kindOf(path: string): 'directory' | 'other' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing';
  }
}
