import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';

/** A keyset position in (created_at, id) order, as the export pages. */
export interface Cursor {
  createdAt: number;
  id: string;
}

/**
 * One repository's rows as the shared cases see them: every method takes the owner's id first
 * (DESIGN §3), so a query without the owner is visibly wrong.
 */
export interface OwnedRows<R extends { id: string; created_at: number }> {
  /** A fresh owner. */
  newUser(): Promise<string>;
  /** Stores a row of `userId` with this id and creation time. */
  insert(userId: string, id: string, createdAt: number): Promise<void>;
  find(userId: string, id: string): Promise<R | undefined>;
  /** Sets the row's text (title, content, description or name); whether a row was changed. */
  setText(userId: string, id: string, text: string): Promise<boolean>;
  text(row: R): string;
  delete(userId: string, id: string): Promise<boolean>;
  /** The export's keyset pages, where the repository has them. */
  pageAfter?(userId: string, after: Cursor | null, limit: number): Promise<R[]>;
}

/** Row ids unique to one test (ids are primary keys across users), sortable by their suffix. */
const idsFor = (...suffixes: string[]) => {
  const prefix = randomUUID().slice(0, 8);
  return suffixes.map((s) => `${prefix}-${s}`);
};

/** The owner-scoping, update/delete and paging cases every user-owned repository keeps. Call inside describe(). */
export function ownedRowCases<R extends { id: string; created_at: number }>(rows: OwnedRows<R>): void {
  test('a row is read by its owner only', async () => {
    const [ada, bob] = [await rows.newUser(), await rows.newUser()];
    const [id] = idsFor('row');
    await rows.insert(ada, id, 1000);
    assert.equal((await rows.find(ada, id))?.id, id);
    assert.equal(await rows.find(bob, id), undefined);
  });

  test("an update through another user's id changes nothing and returns false", async () => {
    const [ada, bob] = [await rows.newUser(), await rows.newUser()];
    const [id] = idsFor('row');
    await rows.insert(ada, id, 1000);
    const before = await rows.find(ada, id);
    assert.equal(await rows.setText(bob, id, 'taken over'), false);
    assert.deepEqual(await rows.find(ada, id), before);
  });

  test("the owner's update returns true and is read back; an unknown id returns false", async () => {
    const ada = await rows.newUser();
    const [id, unknown] = idsFor('row', 'unknown');
    await rows.insert(ada, id, 1000);
    assert.equal(await rows.setText(ada, id, 'renamed'), true);
    const row = await rows.find(ada, id);
    assert.ok(row, 'row');
    assert.equal(rows.text(row), 'renamed');
    assert.equal(await rows.setText(ada, unknown, 'renamed'), false);
  });

  test("a delete through another user's id returns false and the row stays; the owner's returns true once", async () => {
    const [ada, bob] = [await rows.newUser(), await rows.newUser()];
    const [id] = idsFor('row');
    await rows.insert(ada, id, 1000);
    assert.equal(await rows.delete(bob, id), false);
    assert.equal((await rows.find(ada, id))?.id, id);
    assert.equal(await rows.delete(ada, id), true);
    assert.equal(await rows.find(ada, id), undefined);
    assert.equal(await rows.delete(ada, id), false);
  });

  const { pageAfter } = rows;
  if (!pageAfter) return;

  test("pages run oldest first by (created_at, id), a cursor continues past ties, and other users' rows never show", async () => {
    const [ada, bob] = [await rows.newUser(), await rows.newUser()];
    const ids = idsFor('a', 'b', 'c', 'd', 'e');
    // Three rows share a creation time: the id breaks the tie. Inserted out of order.
    const created = [2000, 2000, 2000, 1000, 3000];
    for (const i of [4, 2, 0, 3, 1]) await rows.insert(ada, ids[i], created[i]);
    const [bobs] = idsFor('bob');
    await rows.insert(bob, bobs, 2000);
    const seen: string[] = [];
    let after: Cursor | null = null;
    for (let page = 0; page < 4; page++) {
      const rowsOfPage: R[] = await pageAfter.call(rows, ada, after, 2);
      assert.ok(rowsOfPage.length <= 2, 'rowsOfPage.length <= 2');
      seen.push(...rowsOfPage.map((r) => r.id));
      const last = rowsOfPage.at(-1);
      if (!last) break;
      after = { createdAt: last.created_at, id: last.id };
    }
    assert.deepEqual(seen, [ids[3], ids[0], ids[1], ids[2], ids[4]]);
  });
}
