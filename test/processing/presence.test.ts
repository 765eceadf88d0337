import assert from 'node:assert/strict';
import { test } from 'node:test';
import { broadcastScore } from '../../src/processing/local/broadcast.js';
import { createLocalEngine } from '../../src/processing/local/index.js';
import { dialogue, memo } from './inputs.js';

const engine = createLocalEngine();

test('a talk labelled only with other people’s names is discarded: the wearer never speaks', async () => {
  const input = memo(
    'Priya: The budget review moved to Thursday, can you update the deck?\nTom: Sure, I will send it to finance by Friday.',
    { userName: 'Sam' },
  );
  assert.deepEqual(await engine.decideRelevance(input), {
    verdict: 'discard',
    decidedBy: 'rule',
    reason: 'wearer_absent',
  });
});

test('one side of a phone call by a lone speaker 1 is overheard, not the wearer’s', async () => {
  const input = memo(
    "Speaker 1: No, I told him already, the keys are under the mat. Yeah. I'll be there by six, tell your mother.",
  );
  assert.equal((await engine.decideRelevance(input)).reason, 'wearer_absent');
});

test('a diarized advert is background media even though diarization makes it speaker 0', async () => {
  const input = dialogue([
    ['SPEAKER_00', false, 'Introducing the all-new Breeze blender, with five speeds and a glass jar.'],
    ['SPEAKER_01', false, 'Order today and get a second jar absolutely free. Terms and conditions apply.'],
  ]);
  assert.deepEqual(await engine.decideRelevance(input), {
    verdict: 'discard',
    decidedBy: 'rule',
    reason: 'background_media',
  });
});

test('an advert with a little scene inside it is still an advert: its small print gives it away', async () => {
  const input = memo(
    [
      'SPEAKER_00: Life moves fast. Your coverage should too.',
      'SPEAKER_01: Did you switch the car insurance yet?',
      'SPEAKER_02: Already did. Took four minutes on the app.',
      'SPEAKER_00: Switch to Harborline today and save an average of four hundred dollars. Savings vary. Not available in all states.',
    ].join('\n'),
  );
  assert.equal((await engine.decideRelevance(input)).reason, 'background_media');
});

test('a conversation in which the marked wearer speaks is kept, even about a podcast episode', async () => {
  const input = dialogue([
    ['SPEAKER_01', false, 'Did you hear this episode about sleep? The host said to keep the bedroom cold.'],
    ['SPEAKER_00', true, 'I did, and I will try the cold room this week, my sleep has been awful.'],
  ]);
  assert.equal((await engine.decideRelevance(input)).verdict, 'keep');
});

test('friends chatting about a match do not read as commentary', () => {
  const text = 'Did you see the game last night? That free kick was unreal. We should watch the final together.';
  assert.ok(broadcastScore(text) < 2, String(broadcastScore(text)));
});

test('a radio interview is background media: a guest joining the show and a break coming up give it away', async () => {
  const input = memo(
    [
      "SPEAKER_00: Today we're talking about the housing market, and joining me now is economist Dr Laila Haddad.",
      'SPEAKER_01: Thanks for having me.',
      'SPEAKER_00: Interest rates went up again last week. What does that mean for first-time buyers?',
      'SPEAKER_01: Mortgage costs will rise, and we expect prices to fall slightly later in the year.',
      "SPEAKER_00: We'll be right back after this short break.",
    ].join('\n'),
  );
  assert.equal((await engine.decideRelevance(input)).reason, 'background_media');
});
