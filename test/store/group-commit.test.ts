import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { transactionRunner } from '../../src/store/group-commit.js';
import type { Database } from '../../src/store/schema.js';

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
