import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  assertPublicUrl,
  guardedLookup,
  isPrivateAddress,
  PrivateTargetError,
} from '../../src/providers/webhook/ssrf.js';

describe('webhook SSRF guard', () => {
  test('loopback, private, link-local, unique-local, CGNAT and multicast addresses are private', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      assert.equal(isPrivateAddress(address), true, address);
    }
  });

  test('public addresses are allowed', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      assert.equal(isPrivateAddress(address), false, address);
    }
  });

  test('IP literals in any spelling and localhost names are refused before connecting', () => {
    for (const url of [
      'http://127.0.0.1/x',
      'http://0x7f.1/x',
      'http://2130706433/x',
      'http://[::1]/x',
      'http://[::ffff:127.0.0.1]/',
      'http://localhost:8080/',
      'http://api.localhost/',
    ]) {
      assert.throws(() => assertPublicUrl(new URL(url)), PrivateTargetError, url);
    }
    assert.doesNotThrow(() => assertPublicUrl(new URL('https://hooks.example.com/x')));
  });

  test('a name resolving to a private address is refused at connect time', async () => {
    const error = await new Promise<Error | null>((resolve) => {
      guardedLookup('localhost', { all: false }, (err) => resolve(err));
    });
    assert.ok(error instanceof PrivateTargetError);
  });
});
