import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLocalEngine, decideByRules } from '../../src/processing/local/index.js';
import { dialogue, memo } from './inputs.js';

const RULE_TABLE: Array<[string, string, string]> = [
  ['', 'discard', 'empty_transcript'],
  ['   \n\t ', 'discard', 'empty_transcript'],
  ['👍👍🙂', 'discard', 'empty_transcript'],
  ['Remind me to call the dentist.', 'keep', 'explicit_reminder'],
  ["Don't forget to water the plants", 'keep', 'explicit_reminder'],
  ['note to self: buy stamps', 'keep', 'explicit_reminder'],
  ['Set an alarm for six', 'keep', 'explicit_reminder'],
  ['Add oat milk to my shopping list', 'keep', 'explicit_reminder'],
  ['Yeah. Mm-hmm. Okay.', 'discard', 'filler_only'],
  ['hmmmm hahaha', 'discard', 'filler_only'],
  ['Yeahhh. Okaaay. Hmm.', 'discard', 'filler_only'],
  ['Ja, genau. Oui.', 'discard', 'filler_only'],
  ['うん。はい。', 'discard', 'filler_only'],
  [`${'yeah '.repeat(150)}`, 'discard', 'filler_only'],
  [`${'we talked about the budget and the plan '.repeat(15)}`, 'keep', 'substantial_length'],
  ['明日の会議の資料を準備する', 'undecided', 'non_latin_content'],
  ['Привет, как дела?', 'undecided', 'non_latin_content'],
  ['Testing, testing, one two three. Can you hear me?', 'discard', 'mic_check'],
  ['Mic check, one, two.', 'discard', 'mic_check'],
  ['so then she was like, and I was, you know', 'discard', 'no_content_words'],
  ['I mean, it is what it is.', 'discard', 'no_content_words'],
  ['Is this Carla?', 'undecided', 'ambiguous'],
  ['It was 42.', 'undecided', 'ambiguous'],
  ['The quarterly budget review moved.', 'undecided', 'ambiguous'],
];

for (const [text, verdict, reason] of RULE_TABLE) {
  test(`rules: ${JSON.stringify(text.slice(0, 40))} → ${verdict} (${reason})`, () => {
    assert.deepEqual(decideByRules(text), { verdict, reason });
  });
}

test('rules ignore speaker labels of a joined transcript', () => {
  assert.deepEqual(decideByRules('SPEAKER_00: Yeah.\nSPEAKER_01: Mm-hmm, okay.'), {
    verdict: 'discard',
    reason: 'filler_only',
  });
});

test('rules normalise curly apostrophes before matching reminders', () => {
  assert.deepEqual(decideByRules('Don’t forget to feed the cat'), { verdict: 'keep', reason: 'explicit_reminder' });
});

const engine = createLocalEngine();

test('a rule decision is reported as decided by rule', async () => {
  assert.deepEqual(await engine.decideRelevance(memo('Hmm. Okay.')), {
    verdict: 'discard',
    decidedBy: 'rule',
    reason: 'filler_only',
  });
});

test('the model tier keeps a short request addressed to the user', async () => {
  const input = dialogue([
    ['SPEAKER_01', false, 'Can you grab milk and bread on your way home?'],
    ['SPEAKER_00', true, 'Sure, will do.'],
  ]);
  assert.deepEqual(await engine.decideRelevance(input), { verdict: 'keep', decidedBy: 'model', reason: 'ambiguous' });
});

test('the model tier keeps a terse imperative memo', async () => {
  assert.deepEqual(await engine.decideRelevance(memo('Call mom tomorrow.')), {
    verdict: 'keep',
    decidedBy: 'model',
    reason: 'ambiguous',
  });
});

test('the model tier discards a throwaway question', async () => {
  assert.deepEqual(await engine.decideRelevance(memo('Hey, what time is it?')), {
    verdict: 'discard',
    decidedBy: 'model',
    reason: 'ambiguous',
  });
});

test('the model tier keeps a sentence of non-Latin text and discards a word', async () => {
  const sentence = await engine.decideRelevance(memo('明日の午前十時に銀行で住宅ローンの相談をする予定です'));
  const word = await engine.decideRelevance(memo('Привет'));
  assert.deepEqual(sentence, { verdict: 'keep', decidedBy: 'model', reason: 'non_latin_content' });
  assert.deepEqual(word, { verdict: 'discard', decidedBy: 'model', reason: 'non_latin_content' });
});

test('a lone question about a date plans nothing and is discarded; a dated note is kept', async () => {
  assert.equal((await engine.decideRelevance(memo("Okay Google, what's the weather tomorrow?"))).verdict, 'discard');
  assert.equal((await engine.decideRelevance(memo('Dentist appointment on Tuesday at three.'))).verdict, 'keep');
});

test('"get back to you" and "another phone call today" in a family call are no broadcast hand-off or advert', async () => {
  const call = memo(
    [
      "Speaker 1: Fi? You there? Sorry, the signal in Mum's kitchen is rubbish.",
      "Speaker 0: I'm here. Right, did the crematorium get back to you?",
      "Speaker 1: Aye. Friday the twenty-third, half eleven. Can you phone the minister? I can't do another phone call today.",
      "Speaker 0: Course. I'll phone him tonight.",
    ].join('\n'),
  );
  assert.equal((await engine.decideRelevance(call)).verdict, 'keep');
});

test('commentary, a radio advert with its traffic report, and a cooking show going to a break are background media', async () => {
  const match = memo(
    [
      "SPEAKER_00: ...and Saka, cutting inside, onto his left — oh, that's just wide of the far post!",
      'SPEAKER_01: He should have hit the target there, the keeper was scrambling.',
      "SPEAKER_00: Forty-one minutes gone here, and it's still goalless.",
      'SPEAKER_00: Corner now, taken short... the cross — headed clear.',
    ].join('\n'),
  );
  const radio = memo(
    [
      "Speaker 0: —and that's the Valley Mattress Mega Sale, this weekend only! Zero percent financing.",
      "Speaker 0: Traffic now — there's a stall on the bridge, right lane blocked, expect delays.",
      "Speaker 1: And it's a sunny fourteen degrees at the airport, heading for twenty-one.",
    ].join('\n'),
  );
  const show = memo(
    [
      'Speaker 0: Five minutes, then you lower the heat. We will be right back after this break!',
      'Speaker 1: Unli-rice, unli-saya! Only at your favorite inasal, now open in Marikina!',
    ].join('\n'),
  );
  for (const input of [match, radio, show]) {
    const decision = await engine.decideRelevance(input);
    assert.deepEqual([decision.verdict, decision.reason], ['discard', 'background_media']);
  }
});
