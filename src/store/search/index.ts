import type { DialectName } from '../db.js';
import { postgresSearch } from './postgres.js';
import { sqliteSearch } from './sqlite.js';
import type { SearchBackend } from './types.js';

/** The full-text backend of a store, chosen once when the repository is built. */
export function searchBackend(dialect: DialectName): SearchBackend {
  return dialect === 'postgres' ? postgresSearch : sqliteSearch;
}

export { type MatchMode, type SearchBackend, type SearchHit, searchTerms } from './types.js';
