import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Store } from '../../src/store/db.js';
import { transactionRunner } from '../../src/store/group-commit.js';
import type { Database } from '../../src/store/schema.js';
import { dialects, freshPostgresStore } from '../helpers/store.js';

/** A bare SQLite database with two tables, counting the COMMITs Kysely sends. */
function openDb() {
  const sqlite = new SQLite(':memory:');
  sqlite.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
               CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)`);
  sqlite.pragma('foreign_keys = ON');
  const commits = { count: 0 };
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => {
      if (event.level === 'query' && /^commit$/i.test(event.query.sql)) commits.count++;
    },
  });
  const names = () => sqlite.prepare('SELECT name FROM parent ORDER BY id').pluck().all();
  return { db, sqlite, commits, names };
}

const addParent = (name: string) => async (tx: Kysely<Database>) => {
  await sql`INSERT INTO parent (name) VALUES (${name})`.execute(tx);
  return name;
};

// SQLite only: units share one COMMIT there; PostgreSQL runs a transaction per unit (tested below).
describe('SQLite group commit', () => {
  test('units submitted together share one commit and each caller gets its own result', async () => {
    const { db, commits, names } = openDb();
    const run = transactionRunner(db, 'sqlite');
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((n) => run(addParent(n))));
    assert.deepEqual(results, ['a', 'b', 'c', 'd']);
    assert.equal(commits.count, 1);
    assert.deepEqual(names(), ['a', 'b', 'c', 'd']);
    // Later units form a group of their own.
    await run(addParent('e'));
    assert.equal(commits.count, 2);
    await db.destroy();
  });

  test('a failing unit is rolled back alone and its caller gets the error', async () => {
    const { db, commits, names } = openDb();
    const run = transactionRunner(db, 'sqlite');
    const outcomes = await Promise.allSettled([
      run(addParent('kept-1')),
      run(async (tx) => {
        await addParent('half-written')(tx);
        await addParent('kept-1')(tx); // UNIQUE violation after a successful insert
      }),
      run(addParent('kept-2')),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    const failure = outcomes[1] as PromiseRejectedResult;
    assert.match(String(failure.reason), /UNIQUE constraint failed: parent.name/);
    assert.equal(commits.count, 1);
    assert.deepEqual(names(), ['kept-1', 'kept-2'], 'nothing of the failed unit is stored');
    await db.destroy();
  });

  test('a failed COMMIT rejects every unit of the group and writes none of it', async () => {
    const { db, sqlite, names } = openDb();
    const run = transactionRunner(db, 'sqlite');
    const outcomes = await Promise.allSettled([
      run(addParent('first')),
      // A deferred foreign key is checked at COMMIT: the whole group's commit fails.
      run(async (tx) => {
        await sql`INSERT INTO child (parent_id) VALUES (999)`.execute(tx);
      }),
    ]);
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 'rejected');
      assert.match(String((outcome as PromiseRejectedResult).reason), /FOREIGN KEY constraint failed/);
    }
    assert.deepEqual(names(), []);
    assert.equal(sqlite.prepare('SELECT count(*) FROM child').pluck().get(), 0);
    // The connection is usable afterwards.
    assert.equal(await run(addParent('after')), 'after');
    assert.deepEqual(names(), ['after']);
    await db.destroy();
  });

  test('a lone unit runs as a plain transaction: its error rolls it back', async () => {
    const { db, commits, names } = openDb();
    const run = transactionRunner(db, 'sqlite');
    await assert.rejects(
      run(async (tx) => {
        await addParent('lonely')(tx);
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    assert.deepEqual(names(), []);
    assert.equal(commits.count, 0);
    await db.destroy();
  });

  test('a burst larger than one group is committed in several groups, in order', async () => {
    const { db, commits, names } = openDb();
    const run = transactionRunner(db, 'sqlite');
    const all = Array.from({ length: 70 }, (_, i) => `n${String(i).padStart(2, '0')}`);
    await Promise.all(all.map((n) => run(addParent(n))));
    assert.deepEqual(names(), all);
    assert.equal(commits.count, 3, '32 + 32 + 6');
    await db.destroy();
  });
});

if (dialects().includes('postgres')) {
  describe('transaction runner (postgres)', () => {
    let store: Store;
    let run: ReturnType<typeof transactionRunner>;
    const names = async () =>
      (await sql<{ name: string }>`SELECT name FROM parent ORDER BY id`.execute(store.db)).rows.map((r) => r.name);

    before(async () => {
      store = await freshPostgresStore();
      await sql`CREATE TABLE parent (id SERIAL PRIMARY KEY, name TEXT NOT NULL UNIQUE)`.execute(store.db);
      run = transactionRunner(store.db, 'postgres');
    });
    after(() => store.close());

    test('units submitted together each run and answer their own caller', async () => {
      const results = await Promise.all(['pa', 'pb', 'pc'].map((n) => run(addParent(n))));
      assert.deepEqual(results, ['pa', 'pb', 'pc']);
      assert.deepEqual((await names()).sort(), ['pa', 'pb', 'pc']);
    });

    test('a failing unit is rolled back alone and its caller gets the error', async () => {
      const outcomes = await Promise.allSettled([
        run(addParent('kept-1')),
        run(async (tx) => {
          await addParent('half-written')(tx);
          throw new Error('changed my mind');
        }),
        run(addParent('kept-2')),
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /changed my mind/);
      const stored = await names();
      assert.ok(
        stored.includes('kept-1') && stored.includes('kept-2'),
        "stored.includes('kept-1') && stored.includes('kept-2')",
      );
      assert.ok(!stored.includes('half-written'), 'nothing of the failed unit is stored');
    });

    test('a unit that breaks a constraint after a successful insert stores neither', async () => {
      await run(addParent('taken'));
      await assert.rejects(
        run(async (tx) => {
          await addParent('first-half')(tx);
          await addParent('taken')(tx);
        }),
        /duplicate key value violates unique constraint/,
      );
      assert.ok(!(await names()).includes('first-half'), "!(await names()).includes('first-half')");
    });
  });
}
