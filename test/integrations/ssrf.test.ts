import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { LookupFunction } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createAgents } from '../../src/providers/webhook/agents.js';
import { WebhookHttpClient } from '../../src/providers/webhook/http-client.js';
import {
  assertPublicUrl,
  guardedLookup,
  isPrivateAddress,
  nonPublicReason,
  PrivateTargetError,
} from '../../src/providers/webhook/ssrf.js';
import { FakeAppServer } from '../helpers/fake-app-server.js';

/** A DNS stand-in: fixed answers per name (the process boundary the client resolves through). */
function fakeResolver(answers: Record<string, string>): LookupFunction {
  return (hostname, options, callback) => {
    const address = answers[hostname];
    if (!address) {
      callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    const entry: LookupAddress = { address, family: address.includes(':') ? 6 : 4 };
    if (options.all) callback(null, [entry]);
    else callback(null, entry.address, entry.family);
  };
}

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

  test('IPv6 forms that carry a private IPv4 address are private', () => {
    for (const [address, embedded] of [
      ['::127.0.0.1', '127.0.0.1'], // IPv4-compatible
      ['::10.0.0.1', '10.0.0.1'],
      ['::ffff:0:7f00:1', '127.0.0.1'], // IPv4-translated (RFC 6145)
      ['::ffff:0:a9fe:a9fe', '169.254.169.254'],
      ['2002:7f00:1::', '127.0.0.1'], // 6to4
      ['2002:c0a8:101::1', '192.168.1.1'],
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', '127.0.0.1'], // Teredo: client = NOT of the last 32 bits
      ['2001:0:4136:e378:8000:63bf:f5ff:fffe', '10.0.0.1'],
      ['64:ff9b::7f00:1', '127.0.0.1'], // NAT64 well-known prefix
      ['64:ff9b::c0a8:1', '192.168.0.1'],
    ]) {
      assert.equal(isPrivateAddress(address), true, address);
      assert.match(String(nonPublicReason(address)), new RegExp(`embeds ${embedded.replace(/\./g, '\\.')},`), address);
    }
    assert.match(String(nonPublicReason('64:ff9b:1::808:808')), /local-use NAT64/, 'RFC 8215 local-use prefix');
  });

  test('the same IPv6 forms around a public IPv4 address are allowed', () => {
    for (const address of [
      '::ffff:0:808:808',
      '2002:808:808::1',
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
      '64:ff9b::808:808',
    ]) {
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
      'http://[::127.0.0.1]/',
      'http://[::ffff:0:7f00:1]/',
      'http://[2002:7f00:1::]/',
      'http://[64:ff9b::7f00:1]/',
      'http://localhost:8080/',
      'http://LOCALHOST./',
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
    assert.ok(error instanceof PrivateTargetError, 'error instanceof PrivateTargetError');
  });
});

describe('webhook sockets', () => {
  let fake: FakeAppServer;
  let port: string;
  before(async () => {
    fake = await FakeAppServer.start();
    port = new URL(fake.url).port;
  });
  after(() => fake.close());

  test('an app webhook never reuses the keep-alive socket of the push gateway on a private host', async () => {
    const client = new WebhookHttpClient(false, 4, fakeResolver({ 'gateway.internal': '127.0.0.1' }));
    try {
      const post = (path: string, publicOnly: boolean) =>
        client.post({
          url: `http://gateway.internal:${port}${path}`,
          headers: {},
          body: '{}',
          timeoutMs: 2000,
          publicOnly,
        });
      assert.equal((await post('/push', false)).status, 200, 'the trusted gateway is reached');
      await assert.rejects(post('/hook', true), PrivateTargetError);
      assert.equal(fake.callsTo('/hook').length, 0);
      assert.equal((await post('/push', false)).status, 200, 'the gateway keeps working');
    } finally {
      client.close();
    }
  });

  test('a name that resolves to a private address at connect time is refused', async () => {
    const client = new WebhookHttpClient(false, 4, fakeResolver({ 'rebound.example.com': '10.1.2.3' }));
    try {
      const url = 'http://rebound.example.com/hook';
      await assert.rejects(
        client.post({ url, headers: {}, body: '{}', timeoutMs: 2000, publicOnly: true }),
        (err: unknown) => err instanceof PrivateTargetError && /resolves to 10\.1\.2\.3/.test(err.message),
      );
    } finally {
      client.close();
    }
  });

  test('the public-only agent refuses a private literal by itself (Node skips lookup for literals)', async () => {
    const agents = createAgents('public-only', fakeResolver({}));
    try {
      const error = await new Promise<Error>((resolve) => {
        const req = http.request(`http://[::ffff:0:7f00:1]:${port}/direct`, { agent: agents['http:'], method: 'POST' });
        req.on('error', resolve);
        req.on('response', () => resolve(new Error('answered')));
        req.end();
      });
      assert.ok(error instanceof PrivateTargetError, String(error));
      assert.equal(fake.callsTo('/direct').length, 0);
    } finally {
      agents.destroy();
    }
  });
});
