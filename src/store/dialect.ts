import { type Kysely, PostgresAdapter } from 'kysely';
import type { DialectName } from './db.js';

/** Dialect differences live here and nowhere else (STYLE.md, Kysely). */

/** Column type for binary data in migrations. */
export function binaryType(dialect: DialectName): 'blob' | 'bytea' {
  return dialect === 'postgres' ? 'bytea' : 'blob';
}

/** Column type for floating point numbers in migrations. */
export function doubleType(dialect: DialectName): 'real' | 'double precision' {
  return dialect === 'postgres' ? 'double precision' : 'real';
}

/** Which dialect a Kysely instance speaks (migrations receive only the Kysely object). */
export function dialectOf(db: Kysely<unknown>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
