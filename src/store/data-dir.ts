import { closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import type { Logger } from 'pino';

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
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
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
