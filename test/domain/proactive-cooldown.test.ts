import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { ManualClock } from '../../src/context-types.js';
import type { ContextSources } from '../../src/domain/proactive/context.js';
import { defineProactivePolicy, ProactiveNotifier } from '../../src/domain/proactive/service.js';
import type { RateLimiter } from '../../src/providers/limits/limiter.js';
import { appRow, FakeApps, FakeGenerator, FakeNotifications } from './fakes/apps.js';
import { FakeUsers } from './fakes/conversations.js';
import { memoryLimiter, unreachableLimiter } from './fakes/limiter.js';
import { asPort } from './fakes/port.js';

// SPEC §8: at most one proactive notification per user per app every 30 s.
const ASK = JSON.stringify({ session_id: 's', notification: { prompt: 'Remind {{user_name}} to drink water.' } });
const NOTHING = JSON.stringify({ session_id: 's' });

const proactiveApp = (id: string) => appRow(id, { capabilities: ['proactive_notification'], scopes: ['user_name'] });

function setUp(limiter: (clock: ManualClock) => RateLimiter = memoryLimiter) {
  const clock = new ManualClock();
  const apps = new FakeApps();
  const notifications = new FakeNotifications();
  const generator = new FakeGenerator();
  const users = new FakeUsers();
  const counters = limiter(clock);
  defineProactivePolicy(counters);
  for (const id of ['water', 'steps']) apps.add(proactiveApp(id));
  for (const uid of ['ada', 'bob']) {
    users.add(uid, uid === 'ada' ? 'Ada' : 'Bob');
    for (const appId of ['water', 'steps']) apps.grant(uid, appId, ['user_name']);
  }
  const notifier = new ProactiveNotifier({
    apps: apps.port,
    notifications: notifications.port,
    // The template uses only {{user_name}}: the other sources are never read.
    sources: { ...asPort<ContextSources>({}), users: users.port },
    limiter: counters,
    generator,
    log: pino({ level: 'silent' }),
  });
  /** The outcome of `appId`'s webhook reply `body` for `userId`. */
  const reply = async (userId: string, appId: string, body = ASK) => {
    const app = apps.apps.get(appId);
    assert.ok(app, 'app');
    return notifier.handleReply(userId, app, body, []);
  };
  return { clock, apps, notifications, generator, reply };
}

describe('proactive notification cooldown', () => {
  test('a requested notification is generated and delivered in the app name', async () => {
    const { notifications, generator, reply } = setUp();
    assert.equal(await reply('ada', 'water'), 'notified');
    assert.deepEqual(generator.prompts, ['Remind Ada to drink water.']);
    assert.deepEqual(notifications.delivered, [
      {
        userId: 'ada',
        appId: 'water',
        title: 'App water says',
        message: 'Drink a glass of water now.',
        source: 'proactive',
      },
    ]);
  });

  test('a second request within 30 s is refused as cooldown and the LLM is not asked', async () => {
    const { clock, notifications, generator, reply } = setUp();
    await reply('ada', 'water');
    clock.advance(29_999);
    assert.equal(await reply('ada', 'water'), 'cooldown');
    assert.equal(generator.prompts.length, 1);
    assert.equal(notifications.delivered.length, 1);
  });

  test('30 s after the last notification the app may notify again', async () => {
    const { clock, notifications, reply } = setUp();
    await reply('ada', 'water');
    clock.advance(30_000);
    assert.equal(await reply('ada', 'water'), 'notified');
    assert.equal(notifications.delivered.length, 2);
  });

  test('the cooldown is per user and per app', async () => {
    const { notifications, reply } = setUp();
    const outcomes = [await reply('ada', 'water'), await reply('ada', 'steps'), await reply('bob', 'water')];
    assert.deepEqual(outcomes, ['notified', 'notified', 'notified']);
    assert.deepEqual(
      notifications.delivered.map((n) => [n.userId, n.appId]),
      [
        ['ada', 'water'],
        ['ada', 'steps'],
        ['bob', 'water'],
      ],
    );
  });

  test('a failed generation still starts the cooldown, so a failing LLM is not asked on every batch', async () => {
    const { generator, reply } = setUp();
    generator.reply = new Error('LLM down');
    assert.equal(await reply('ada', 'water'), 'llm_failed');
    generator.reply = 'Drink a glass of water now.';
    assert.equal(await reply('ada', 'water'), 'cooldown');
    assert.equal(generator.prompts.length, 1);
  });

  test('a reply that asks for nothing does not take the cooldown', async () => {
    const { reply } = setUp();
    assert.equal(await reply('ada', 'water', NOTHING), 'no_notification');
    assert.equal(await reply('ada', 'water'), 'notified');
  });

  test('an app the user has not enabled is refused without taking the cooldown', async () => {
    const { apps, reply } = setUp();
    apps.add(proactiveApp('new'));
    assert.equal(await reply('ada', 'new'), 'app_disabled');
    apps.grant('ada', 'new', ['user_name']);
    assert.equal(await reply('ada', 'new'), 'notified');
  });

  test('when the cooldown counters cannot be reached nothing is generated or delivered', async () => {
    const { notifications, generator, reply } = setUp(unreachableLimiter);
    assert.equal(await reply('ada', 'water'), 'cooldown');
    assert.deepEqual(generator.prompts, []);
    assert.deepEqual(notifications.delivered, []);
  });
});
