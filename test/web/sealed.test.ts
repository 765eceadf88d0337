import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type SealedCookie, seal, unseal } from '../../src/routes/web/sealed.js';

const SECRET = 'a-server-secret-of-at-least-32-characters';
const FLASH: SealedCookie = { name: 'flash', path: '/keys', sameSite: 'Strict', maxAgeSeconds: 60 };
const OTHER: SealedCookie = { ...FLASH, name: 'other' };
const NOW = Date.parse('2026-11-23T12:00:00Z');

describe('sealed cookies', () => {
  test('a sealed value opens with the same secret and purpose, and is not readable', () => {
    const text = seal(SECRET, FLASH, { key: 'omi_dev_secret' }, NOW);
    assert.doesNotMatch(Buffer.from(text, 'base64url').toString('latin1'), /omi_dev_secret/);
    assert.deepEqual(unseal(SECRET, FLASH, text, NOW + 59_000), { key: 'omi_dev_secret' });
  });

  test('an expired, altered, foreign or differently keyed value opens to null', () => {
    const text = seal(SECRET, FLASH, { a: 1 }, NOW);
    assert.equal(unseal(SECRET, FLASH, text, NOW + 60_000), null);
    const bytes = Buffer.from(text, 'base64url');
    bytes[bytes.length - 1] ^= 1;
    assert.equal(unseal(SECRET, FLASH, bytes.toString('base64url'), NOW), null);
    assert.equal(unseal(SECRET, OTHER, text, NOW), null);
    assert.equal(unseal(`${SECRET}x`, FLASH, text, NOW), null);
    assert.equal(unseal(SECRET, FLASH, 'short', NOW), null);
  });
});
