import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { textFault } from '../../src/domain/text.js';
import type { TextEngine } from '../../src/processing/engine.js';
import { createLlmEngine, PROMPT_VERSIONS } from '../../src/processing/llm/index.js';
import { createLocalEngine } from '../../src/processing/local/index.js';
import { assertValidResults, BAD_INPUTS } from './contract.js';
import { type FakeReply, type RecordedRequest, startFakeOpenAi } from './fake-openai.js';
import { dialogue, memo, wallClock } from './inputs.js';

const local = createLocalEngine();
// Wednesday 2026-03-04 09:00 in New York.
const AMBIGUOUS = memo('The quarterly budget review moved.');
const TALK = dialogue([
  ['Dana', false, 'Can you send me the budget slides by Friday?'],
  ['SPEAKER_00', true, "Sure. I live in Lisbon, so I'll send them from home."],
]);

interface Harness {
  engine: ReturnType<typeof createLlmEngine>;
  requests: RecordedRequest[];
  fallbacks: Array<[string, string]>;
}

async function harness(
  t: TestContext,
  answer: (schema: string) => FakeReply,
  options: { timeoutMs?: number; maxRetries?: number } = {},
): Promise<Harness> {
  const server = await startFakeOpenAi(answer);
  t.after(() => server.close());
  const fallbacks: Array<[string, string]> = [];
  const engine = createLlmEngine({
    baseUrl: server.baseUrl,
    apiKey: 'test-key',
    model: 'fake-model',
    timeoutMs: options.timeoutMs ?? 2000,
    maxRetries: options.maxRetries ?? 0,
    fallback: local,
    onFallback: (step, reason) => fallbacks.push([step, reason]),
  });
  return { engine, requests: server.requests, fallbacks };
}

test('requests carry the model, the key and a strict json_schema response format', async (t) => {
  const { engine, requests } = await harness(t, () => ({ content: { discard: false } }));
  await engine.decideRelevance(AMBIGUOUS);
  assert.equal(requests.length, 1);
  const [request] = requests;
  assert.equal(request.path, '/v1/chat/completions');
  assert.equal(request.authorization, 'Bearer test-key');
  assert.equal(request.body.model, 'fake-model');
  assert.equal(request.body.response_format.type, 'json_schema');
  assert.equal(request.body.response_format.json_schema.name, 'relevance');
  assert.equal(request.body.response_format.json_schema.strict, true);
  assert.deepEqual(request.body.response_format.json_schema.schema.required, ['discard']);
  assert.match(request.body.messages[1].content, /<<<TRANSCRIPT\nThe quarterly budget review moved\.\nTRANSCRIPT>>>/);
});

test('a bare host gets /v1 appended', async (t) => {
  const server = await startFakeOpenAi(() => ({ content: { discard: true } }));
  t.after(() => server.close());
  const engine = createLlmEngine({ baseUrl: server.baseUrl.replace(/\/v1$/, ''), model: 'm', fallback: local });
  assert.equal((await engine.decideRelevance(AMBIGUOUS)).verdict, 'discard');
  assert.equal(server.requests[0].path, '/v1/chat/completions');
});

test('relevance: the rules decide first and the model only sees the ambiguous rest', async (t) => {
  const { engine, requests } = await harness(t, () => ({ content: { discard: true } }));
  assert.deepEqual(await engine.decideRelevance(memo('Yeah. Okay.')), {
    verdict: 'discard',
    decidedBy: 'rule',
    reason: 'filler_only',
  });
  assert.equal(requests.length, 0);
  assert.deepEqual(await engine.decideRelevance(AMBIGUOUS), {
    verdict: 'discard',
    decidedBy: 'model',
    reason: 'ambiguous',
  });
  assert.equal(requests.length, 1);
});

test('relevance: a model error keeps the conversation and is reported', async (t) => {
  const { engine, fallbacks } = await harness(t, () => ({ status: 500 }));
  assert.deepEqual(await engine.decideRelevance(AMBIGUOUS), {
    verdict: 'keep',
    decidedBy: 'model',
    reason: 'model_error',
  });
  assert.deepEqual(fallbacks, [['relevance', 'http_500']]);
  assert.equal(engine.lastFallbackReason, 'http_500');
});

test('structure: a valid answer is clamped and converted from local time', async (t) => {
  const { engine, fallbacks } = await harness(t, () => ({
    content: {
      title: 'Speaker 0 and Dana plan the budget slides for the Friday review meeting with the whole team',
      overview: 'x'.repeat(600),
      emoji: 'not an emoji',
      category: 'finance',
      events: [
        { title: 'Budget Review', description: 'Review with Dana', start: '2026-03-06T15:00', duration: 500 },
        { title: 'Broken', description: '', start: 'Friday afternoon', duration: 30 },
      ],
    },
  }));
  const structure = await engine.structure(TALK);
  assert.equal(structure.title, 'Dana plan the budget slides for the Friday review meeting');
  assert.equal(structure.overview.length, 400);
  assert.equal(structure.category, 'finance');
  assert.equal(structure.emoji, '💰');
  assert.deepEqual(
    structure.events.map((event) => [event.title, wallClock(event.start, 'America/New_York'), event.duration]),
    [['Budget Review', '2026-03-06T15:00', 180]],
  );
  assert.deepEqual(fallbacks, []);
});

test('structure: the model’s title keeps its own casing (trimmed and bounded, never re-cased)', async (t) => {
  const { engine } = await harness(t, () => ({
    content: {
      title: '  iPhone 15 setup with the NASA team and a eBay seller  ',
      overview: 'o',
      emoji: '📱',
      category: 'technology',
      events: [{ title: 'call with iOS devs', description: '', start: '2026-03-06T15:00', duration: 30 }],
    },
  }));
  const structure = await engine.structure(TALK);
  assert.equal(structure.title, 'iPhone 15 setup with the NASA team and a eBay');
  assert.deepEqual(
    structure.events.map((event) => event.title),
    ['call with iOS devs'],
  );
});

test("structure: an empty title is replaced by the fallback engine's title", async (t) => {
  const { engine } = await harness(t, () => ({
    content: { title: 'SPEAKER_01', overview: 'o', emoji: '📊', category: 'work', events: [] },
  }));
  const expected = (await local.structure(TALK)).title;
  assert.equal((await engine.structure(TALK)).title, expected);
});

test('action items: naive local due dates become UTC; stale ones are dropped; long ones cut', async (t) => {
  const { engine } = await harness(t, () => ({
    content: {
      action_items: [
        { description: 'Send Dana the budget slides', due_at: '2026-03-06T23:59' },
        { description: 'Call the bank', due_at: '2026-01-01T09:00' },
        { description: `Write ${'very '.repeat(30)}long notes`, due_at: null },
        { description: '   ', due_at: null },
      ],
    },
  }));
  const items = await engine.extractActionItems(TALK, []);
  assert.deepEqual(
    items.map((item) => [item.description, item.dueAt?.toISOString() ?? null]),
    [
      ['Send Dana the budget slides', '2026-03-07T04:59:00.000Z'],
      ['Call the bank', null],
      [`Write ${'very '.repeat(14).trim()}`, null],
    ],
  );
});

test('action items: the open items are listed in the prompt', async (t) => {
  const { engine, requests } = await harness(t, () => ({ content: { action_items: [] } }));
  const recent = [
    { id: 'a', description: 'Call the plumber', dueAt: null, createdAt: new Date('2026-03-03T10:00:00Z') },
  ];
  assert.deepEqual(await engine.extractActionItems(TALK, recent), []);
  assert.match(requests[0].body.messages[1].content, /Open items:\n- Call the plumber/);
});

test('memories: at most four, without known ones, with clean tags', async (t) => {
  const memory = (content: string) => ({ content, category: 'core', tags: ['Home Town', 'home town', 'x', 'y'] });
  const { engine } = await harness(t, () => ({
    content: {
      memories: [
        memory('User lives in Lisbon'),
        memory('User works as a nurse'),
        memory('User has two cats'),
        memory('User is allergic to peanuts'),
        memory('User plays the cello'),
        memory('User runs marathons'),
      ],
    },
  }));
  const memories = await engine.extractMemories(TALK, [{ content: 'Lives in Lisbon' }]);
  assert.deepEqual(
    memories.map((m) => m.content),
    ['User works as a nurse', 'User has two cats', 'User is allergic to peanuts', 'User plays the cello'],
  );
  assert.deepEqual(memories[0].tags, ['home-town', 'x', 'y']);
});

const FAILURES: Array<[string, FakeReply, string]> = [
  ['malformed JSON', { content: '{"title": "unterminated' }, 'malformed_json'],
  [
    'a schema-violating answer',
    { content: { title: 'T', overview: 'o', emoji: '🍝', category: 'cooking', events: [] } },
    'schema_mismatch',
  ],
  [
    'extra properties',
    { content: { title: 'T', overview: 'o', emoji: '🍝', category: 'work', events: [], secret: 1 } },
    'schema_mismatch',
  ],
  ['an empty answer', { content: '' }, 'empty_answer'],
  ['an HTTP 500', { status: 500 }, 'http_500'],
  ['a non-JSON HTTP body', { rawBody: '<html>gateway</html>' }, 'malformed_json'],
];

for (const [name, reply, reason] of FAILURES) {
  test(`structure falls back to the local engine on ${name}`, async (t) => {
    const { engine, fallbacks } = await harness(t, () => reply);
    const structure = await engine.structure(TALK);
    assert.deepEqual(structure, await local.structure(TALK));
    assert.equal(fallbacks.length, 1);
    assert.equal(fallbacks[0][0], 'structure');
    assert.equal(fallbacks[0][1], reason);
    assert.equal(engine.lastFallbackReason, fallbacks[0][1]);
    assert.equal(engine.fallbackCount, 1);
  });
}

test('a 500 is retried before falling back', async (t) => {
  const { engine, requests, fallbacks } = await harness(t, () => ({ status: 500 }), { maxRetries: 1 });
  const items = await engine.extractActionItems(TALK, []);
  assert.equal(requests.length, 2);
  assert.deepEqual(fallbacks, [['action_items', 'http_500']]);
  assert.deepEqual(items, await local.extractActionItems(TALK, []));
});

test('a slow answer beyond the timeout falls back in time', async (t) => {
  const { engine, fallbacks } = await harness(t, () => ({ delayMs: 3000, content: { memories: [] } }), {
    timeoutMs: 200,
  });
  const started = performance.now();
  const memories = await engine.extractMemories(TALK, []);
  assert.ok(performance.now() - started < 2000, 'performance.now() - started < 2000');
  assert.deepEqual(fallbacks, [['memories', 'timeout']]);
  assert.deepEqual(memories, await local.extractMemories(TALK, []));
});

test('an unreachable server falls back with a connection error', async () => {
  const fallbacks: string[] = [];
  const engine: TextEngine = createLlmEngine({
    baseUrl: 'http://127.0.0.1:9/v1',
    model: 'm',
    maxRetries: 0,
    fallback: local,
    onFallback: (_step, reason) => fallbacks.push(reason),
  });
  const items = await engine.extractActionItems(TALK, []);
  assert.deepEqual(items, await local.extractActionItems(TALK, []));
  assert.deepEqual(fallbacks, ['connection_error']);
});

test('the logger hears about every fallback', async (t) => {
  const server = await startFakeOpenAi(() => ({ content: 'nope' }));
  t.after(() => server.close());
  const warnings: Array<[object, string]> = [];
  const engine = createLlmEngine({
    baseUrl: server.baseUrl,
    model: 'm',
    maxRetries: 0,
    fallback: local,
    logger: { warn: (obj, msg) => warnings.push([obj, msg]) },
  });
  await engine.extractMemories(TALK, []);
  assert.equal(warnings.length, 1);
  assert.deepEqual(
    { ...warnings[0][0], detail: undefined },
    { step: 'memories', reason: 'malformed_json', model: 'm', detail: undefined },
  );
});

test('prompt versions are exported for the record', () => {
  assert.deepEqual(PROMPT_VERSIONS, {
    relevance: 'relevance@1',
    structure: 'structure@1',
    action_items: 'action-items@1',
    memories: 'memories@1',
  });
});

/** Schema-valid but hostile answers: empty title, oversized fields, bad dates, too many items. */
function hostileAnswer(schema: string): FakeReply {
  const long = 'word '.repeat(200);
  switch (schema) {
    case 'relevance':
      return { content: { discard: false } };
    case 'structure':
      return {
        content: {
          title: '',
          overview: long,
          emoji: '',
          category: 'other',
          events: [{ title: long, description: long, start: 'soon', duration: -5 }],
        },
      };
    case 'action_items':
      return {
        content: { action_items: Array.from({ length: 30 }, () => ({ description: long, due_at: '9999-99-99' })) },
      };
    default:
      return {
        content: {
          memories: Array.from({ length: 10 }, (_, i) => ({ content: `${i} ${long}`, category: 'other', tags: [] })),
        },
      };
  }
}

test('bad inputs and hostile answers still give valid results from the LLM engine', async (t) => {
  const { engine } = await harness(t, hostileAnswer);
  for (const [name, input] of BAD_INPUTS) {
    await t.test(name, () => assertValidResults(input, engine));
  }
});

test('a NUL or half a surrogate pair in a model answer never reaches the stored text', async (t) => {
  const { engine, fallbacks } = await harness(t, (schema) =>
    schema === 'structure'
      ? {
          content: {
            title: 'Budget\u0000 review \ud800',
            overview: 'The team\u0000 met.',
            emoji: '📊',
            category: 'work',
            events: [],
          },
        }
      : {
          content: {
            memories: [{ content: 'User likes \udc00tea\u0000', category: 'interests', tags: ['tea\u0000'] }],
          },
        },
  );
  const structure = await engine.structure(AMBIGUOUS);
  const memories = await engine.extractMemories(AMBIGUOUS, []);
  assert.deepEqual(fallbacks, []);
  assert.equal(structure.title, 'Budget review \ufffd');
  assert.equal(structure.overview, 'The team met.');
  for (const text of [structure.title, structure.overview, ...memories.flatMap((m) => [m.content, ...m.tags])]) {
    assert.equal(textFault(text), null, JSON.stringify(text));
  }
  assert.equal(memories[0].content, 'User likes \ufffdtea');
});
