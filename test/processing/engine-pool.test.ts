import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TextEngine, TranscriptInput } from '../../src/processing/engine.js';
import { EnginePool } from '../../src/processing/local/engine-pool.js';
import { createLocalEngine } from '../../src/processing/local/index.js';
import { PooledEngine } from '../../src/processing/local/pooled-engine.js';
import { dialogue, memo } from './inputs.js';

const INPUTS: TranscriptInput[] = [
  memo("I'll email the landlord tomorrow morning. I'm allergic to shellfish, so no oysters at the dinner."),
  dialogue([
    ['SPEAKER_00', true, 'Can we move the roadmap review to Thursday at three? I need to update the slides first.'],
    ['SPEAKER_01', false, 'Sure. I will book the room and send the invite to Marta by Friday.'],
    ['SPEAKER_00', true, 'Great. I have been running every morning, it helps with the launch stress.'],
  ]),
  memo('um okay'),
];

/** Every step of the engine on a fresh copy of the input (no parse shared with another call). */
async function allSteps(engine: TextEngine, source: TranscriptInput) {
  const input = { ...source, segments: source.segments.map((s) => ({ ...s })) };
  const decision = await engine.decideRelevance(input);
  return {
    decision,
    structure: decision.verdict === 'discard' ? null : await engine.structure(input),
    items: await engine.extractActionItems(input, []),
    memories: await engine.extractMemories(input, [{ content: 'Likes oysters' }]),
  };
}

describe('local engine on worker threads', () => {
  const pool = new EnginePool(2);
  const pooled = new PooledEngine(pool);
  const local = createLocalEngine();

  before(() => pool.whenReady());
  after(() => pool.close());

  test('every step gives what the engine gives in-process', async () => {
    for (const input of INPUTS) assert.deepEqual(await allSteps(pooled, input), await allSteps(local, input));
  });

  test('a restored conversation (structure without relevance) is structured on a thread', async () => {
    const [input] = INPUTS;
    assert.deepEqual(await pooled.structure({ ...input }), await local.structure({ ...input }));
  });

  test('many conversations at once all finish, each with its own result', async () => {
    const inputs = Array.from({ length: 12 }, (_, i) => memo(`I need to send invoice number ${i} to Mark by Friday.`));
    const pooledItems = await Promise.all(inputs.map((input) => pooled.extractActionItems({ ...input }, [])));
    const localItems = await Promise.all(inputs.map((input) => local.extractActionItems({ ...input }, [])));
    assert.deepEqual(pooledItems, localItems);
    assert.equal(pool.waiting, 0);
  });
});

describe('engine pool scheduling', () => {
  test('one thread runs one task at a time; waiting creates go before extraction, which still gets every third turn', async () => {
    const pool = new EnginePool(1);
    try {
      await pool.whenReady();
      const order: string[] = [];
      const input = INPUTS[1];
      const submit = (name: string, lane: 'interactive' | 'background') =>
        pool
          .run(
            { method: lane === 'interactive' ? 'structure' : 'extractActionItems', key: name, input, recent: [] },
            lane,
          )
          .then(() => order.push(name));
      const all = [
        submit('b1', 'background'),
        submit('b2', 'background'),
        submit('b3', 'background'),
        submit('i1', 'interactive'),
        submit('i2', 'interactive'),
        submit('i3', 'interactive'),
      ];
      // b1 took the thread at once; the other five wait for it.
      assert.equal(pool.waiting, 5);
      await Promise.all(all);
      assert.deepEqual(order, ['b1', 'i1', 'i2', 'b2', 'i3', 'b3']);
    } finally {
      await pool.close();
    }
  });

  test('a closed pool fails what waits and no longer runs tasks', async () => {
    const pool = new EnginePool(1);
    await pool.whenReady();
    const input = INPUTS[0];
    const running = assert.rejects(pool.run({ method: 'structure', key: 'a', input }, 'interactive'), /closed/);
    const waiting = assert.rejects(pool.run({ method: 'structure', key: 'b', input }, 'interactive'), /closed/);
    await pool.close();
    await Promise.all([running, waiting]);
    await assert.rejects(pool.run({ method: 'structure', key: 'c', input }, 'interactive'), /closed/);
    assert.equal(pool.ready, false);
  });
});
