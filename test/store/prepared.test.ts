import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PreparedQuery } from '../../src/store/prepared.js';
import { createTestApp, createUser, dialects, type TestApp } from '../helpers/app.js';

for (const dialect of dialects()) {
  describe(`prepared queries (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());

    test('each run fills the named values and keeps the compiled constants', async () => {
      const ada = await createUser(t.ctx, { name: 'Ada' });
      const bob = await createUser(t.ctx, { name: 'Bob' });
      const db = t.ctx.store.db;
      // 'Bob' is a constant of the query, compiled as a parameter: it must stay as compiled.
      const named = new PreparedQuery(db, ['id'], (v) =>
        db.selectFrom('users').select('name').where('id', '=', v.id).where('name', '<>', 'Bob'),
      );
      assert.deepEqual(await named.execute({ id: ada.uid }), [{ name: 'Ada' }]);
      assert.deepEqual(await named.execute({ id: bob.uid }), []);
      assert.deepEqual(await named.execute({ id: 'nobody' }), []);
    });

    test('a value the query never uses is a programming error, caught at construction', () => {
      const db = t.ctx.store.db;
      assert.throws(
        () =>
          new PreparedQuery(db, ['id', 'unused'], (v) => db.selectFrom('users').select('id').where('id', '=', v.id)),
        /does not use the value unused/,
      );
    });
  });
}
