import { type Kysely, sql } from 'kysely';
import type { Clock } from '../../context-types.js';
import type { Database } from '../schema.js';
import './tables.js';

// Statistics older than this are counted again; they drift slowly and only decide a query's order.
const TTL_MS = 60_000;
const MAX_TERMS = 10_000;
// Below this many matches ranking is cheap (about 2 ms at 1,000), so small collections keep bm25's order.
const MIN_MATCHES = 1_000;

interface Counted {
  count: number;
  at: number;
}

/**
 * How many memories (of all users, as bm25 counts them) hold a term, cached per process.
 *
 * FTS5's bm25 weighs a term by its inverse document frequency, log((N − n + 0.5) / (n + 0.5)), and gives a
 * term found in at least half of all N memories a weight of 1e-6 (its formula would go to zero or below).
 * A query made only of such terms therefore has no ranking signal, yet ranking it makes SQLite score
 * every match: 90 ms for a word found in 50,000 memories, holding the single connection while it runs.
 * Such a query is answered newest first instead, which only has to read one page of matches. In a query
 * that also has rarer terms, bm25 would still count every match of the common ones to weigh them (1.4 ms
 * for 50,000); ranking by the rarer terms alone gives the same order, to within 1e-6 per common term.
 * Terms in fewer than 1,000 memories are ranked as usual whatever their weight: that costs little.
 */
export class MemoryTermStats {
  private readonly documents = new Map<string, Counted>();
  private total: Counted | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /**
   * The terms bm25 weighs (`ranked`) and those it does not: in at least half of all memories and in 1,000
   * of them (`common`). On a small collection every term is ranked.
   */
  async partition(terms: readonly string[]): Promise<{ ranked: string[]; common: string[] }> {
    const total = await this.memoryCount();
    if (total < MIN_MATCHES) return { ranked: [...terms], common: [] };
    const ranked: string[] = [];
    const common: string[] = [];
    for (const term of terms) {
      const count = await this.documentFrequency(term);
      (count >= MIN_MATCHES && count * 2 >= total ? common : ranked).push(term);
    }
    return { ranked, common };
  }

  private async memoryCount(): Promise<number> {
    const now = this.clock.now();
    if (this.total && now - this.total.at < TTL_MS) return this.total.count;
    const row = await this.db
      .selectFrom('memory_search_map')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    this.total = { count: Number(row.n), at: now };
    return this.total.count;
  }

  private async documentFrequency(term: string): Promise<number> {
    const now = this.clock.now();
    const cached = this.documents.get(term);
    if (cached && now - cached.at < TTL_MS) return cached.count;
    const row = await this.db
      .selectFrom('memories_fts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      // Quoted: the term holds only letters, digits and marks (searchTerms), so it is one phrase.
      .where(sql<boolean>`memories_fts MATCH ${`"${term}"`}`)
      .executeTakeFirstOrThrow();
    this.documents.delete(term);
    if (this.documents.size >= MAX_TERMS) this.documents.delete(this.documents.keys().next().value ?? '');
    this.documents.set(term, { count: Number(row.n), at: now });
    return Number(row.n);
  }
}
