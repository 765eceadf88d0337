import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The server secret signs session tokens and audio URLs. KEEPSAKE_SECRET wins; otherwise one is
 * generated on first start and kept in DATA_DIR/secret (mode 0600) so tokens survive restarts.
 * Several processes sharing a database must share KEEPSAKE_SECRET (or DATA_DIR).
 */
export function loadOrCreateSecret(configured: string | null, dataDir: string): string {
  if (configured) return configured;
  if (dataDir === ':memory:') return randomBytes(32).toString('hex');
  const file = join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('hex');
  // Written whole to a private file, then linked into place: another process starting at the same time
  // sees either no secret file or a complete one, never an empty one.
  const draft = join(dataDir, `.secret-${process.pid}-${randomBytes(4).toString('hex')}`);
  writeFileSync(draft, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, file);
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another process (server or admin CLI) created it first: use theirs.
    return readFileSync(file, 'utf8').trim();
  } finally {
    unlinkSync(draft);
  }
}
