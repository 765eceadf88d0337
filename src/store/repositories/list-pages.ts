import type { SelectQueryBuilder } from 'kysely';

/**
 * Page keys, newest first, for lists whose order is (created_at, id) descending (issue 18). A page at
 * offset N walks N index entries and reads no skipped row: the keys come from a covering index, and the
 * page's rows are fetched by id afterwards. A filter on a few values of an index's leading column (a
 * category list) becomes one range per value, merged in order (UNION ALL with ORDER BY: SQLite merges
 * its arms, reading only the N entries that precede the page; PostgreSQL 15 appends the ranges and keeps
 * the top N + limit keys in a heap, still from the index only); with more values the filter is checked
 * along the newest-first index, whose entries carry it.
 */

// Merging costs per row and per arm; past a few values one walk filtering in the index costs less.
export const MERGED_VALUES = 4;

type KeyQuery<DB, TB extends keyof DB> = SelectQueryBuilder<DB, TB, { id: string; created_at: number }>;

/** `arm(value)` selects id and created_at for one value of the filter, `arm(undefined)` for all `values`. */
export function newestFirstKeys<DB, TB extends keyof DB>(
  values: readonly string[] | undefined,
  arm: (value: string | undefined) => KeyQuery<DB, TB>,
  page: { limit: number; offset: number },
) {
  if (values && values.length > 1 && values.length <= MERGED_VALUES) {
    const [first, ...rest] = values;
    const merged = rest.reduce((union, value) => union.unionAll(arm(value)), arm(first));
    return merged.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset);
  }
  return arm(values?.length === 1 ? values[0] : undefined)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset);
}
