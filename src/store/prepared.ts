import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

const MARK = '\u0000keepsake-parameter:';

/**
 * A query built and compiled once, run with fresh values: for the hot reads of every request, where
 * building the query anew costs as much as running it. `build` receives placeholders for the named
 * values; each run substitutes them, leaving every other parameter as compiled.
 */
export class PreparedQuery<Row, Name extends string> {
  private readonly compiled: CompiledQuery<Row>;
  private readonly slots: Array<Name | null>;

  constructor(
    private readonly db: Kysely<Database>,
    names: readonly Name[],
    build: (values: Record<Name, never>) => Compilable<Row>,
  ) {
    const placeholders = Object.fromEntries(names.map((name) => [name, `${MARK}${name}`])) as Record<Name, never>;
    this.compiled = build(placeholders).compile();
    this.slots = this.compiled.parameters.map((p) =>
      typeof p === 'string' && p.startsWith(MARK) ? (p.slice(MARK.length) as Name) : null,
    );
    for (const name of names) {
      if (!this.slots.includes(name)) throw new Error(`prepared query does not use the value ${name}`);
    }
  }

  async execute(values: Record<Name, unknown>): Promise<Row[]> {
    const parameters = this.slots.map((slot, i) => (slot === null ? this.compiled.parameters[i] : values[slot]));
    return (await this.db.executeQuery<Row>({ ...this.compiled, parameters })).rows;
  }
}
