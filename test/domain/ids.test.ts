import assert from 'node:assert/strict';
import { test } from 'node:test';
import { timeOrderedId } from '../../src/domain/ids.js';

test('time-ordered ids are RFC 9562 version 7 UUIDs', () => {
  const before = Date.now();
  const id = timeOrderedId();
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const ms = Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
  assert.ok(ms >= before && ms <= Date.now(), 'the first 48 bits are the creation time in ms');
});

test('ids made one after another sort in creation order and never repeat', () => {
  const ids = Array.from({ length: 20_000 }, () => timeOrderedId());
  assert.equal(new Set(ids).size, ids.length);
  assert.deepEqual([...ids].sort(), ids);
});
