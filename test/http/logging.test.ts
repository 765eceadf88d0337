import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { createLogger } from '../../src/ops/logger.js';
import { createTestApp } from '../helpers/app.js';

// Logs carry no secrets and no user text; query strings may hold both.
test('request logs keep the path and drop the query string and Authorization', async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const t = await createTestApp('sqlite', { log: createLogger('info', sink) });
  try {
    await t.app.inject({
      method: 'POST',
      url: '/v2/integrations/app1/notification?uid=u1&message=my%20private%20words',
      headers: { authorization: 'Bearer sk_supersecretvalue' },
    });
    await t.app.inject({ method: 'GET', url: '/v1/notifications/stream?token=session-token-value' });
  } finally {
    await t.close();
  }
  const log = lines.join('');
  assert.match(log, /"url":"\/v2\/integrations\/app1\/notification"/);
  assert.doesNotMatch(log, /private|supersecret|session-token-value/);
});
