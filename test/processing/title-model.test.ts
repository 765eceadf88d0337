import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analysisOf } from '../../src/processing/local/analysis.js';
import { classify } from '../../src/processing/local/category.js';
import { createLocalEngine } from '../../src/processing/local/index.js';
import {
  TITLE_CANDIDATES,
  TITLE_FEATURE_NAMES,
  titleFeatures,
  titleTopics,
} from '../../src/processing/local/title-model.js';
import { TITLE_MODEL } from '../../src/processing/local/title-model-weights.js';
import { rankedTopics } from '../../src/processing/local/topics.js';
import { dialogue } from './inputs.js';

test('the committed title weights follow the feature names', () => {
  assert.equal(TITLE_MODEL.weights.length, TITLE_FEATURE_NAMES.length);
});

const handover = dialogue([
  ['SPEAKER_00', true, "Okay, handover for bay three. Mrs Osei in bed two, her pain score was six at four o'clock."],
  ['SPEAKER_01', false, 'Six, okay. Did she have the oramorph?'],
  ['SPEAKER_00', true, 'Yes, at four. Bed four is for discharge tomorrow, the handover notes are on the board.'],
  ['SPEAKER_01', false, 'Great, thanks. Anything else for the handover?'],
]);

test('each candidate phrase is described by the kind of thing its head word names (WordNet)', () => {
  const analysis = analysisOf(handover);
  const { subject } = classify(analysis);
  const topics = rankedTopics(analysis, subject).slice(0, TITLE_CANDIDATES);
  const index = topics.findIndex((topic) => topic.lemmas.join(' ') === 'handover');
  assert.notEqual(index, -1, JSON.stringify(topics.map((topic) => topic.display)));
  const features = titleFeatures(topics, index, analysis, subject);
  assert.equal(features[TITLE_FEATURE_NAMES.indexOf('kind_act')], 1);
  assert.equal(features[TITLE_FEATURE_NAMES.indexOf('kind_person')], 0);
});

test('the headline topics come back surest first, scored by the model, from the first candidates only', () => {
  const analysis = analysisOf(handover);
  const { subject } = classify(analysis);
  const ranked = rankedTopics(analysis, subject);
  const chosen = titleTopics(ranked, analysis, subject);
  assert.ok(chosen.length <= TITLE_CANDIDATES, 'chosen.length <= TITLE_CANDIDATES');
  for (let index = 1; index < chosen.length; index++)
    assert.ok(chosen[index - 1].score >= chosen[index].score, 'chosen[index - 1].score >= chosen[index].score');
  assert.ok(
    chosen.every((topic) => topic.score > 0 && topic.score < 1),
    'chosen.every((topic) => topic.score > 0 && topic.score < 1)',
  );
});

test('"No worries!" names no topic of a title', async () => {
  const { title } = await createLocalEngine().structure(
    dialogue([
      ['SPEAKER_00', true, "Hey Jess, thanks for coming over. Sorry about the mess, Tom's been working late all week."],
      ['SPEAKER_01', false, "No worries! How's Lily doing at nursery?"],
      [
        'SPEAKER_00',
        true,
        'She loves it. Tom and I are thinking of moving closer to my parents in Galway next year though.',
      ],
      ['SPEAKER_01', false, 'Oh wow. Hey, are you still coming to my book club on Tuesday at 7?'],
      [
        'SPEAKER_00',
        true,
        "Yes, I'll be there. I'll bring the wine. I'm vegetarian now by the way, so no need to make the lamb.",
      ],
      ['SPEAKER_01', false, 'Noted! Can you also lend me your camping tent for the weekend after next?'],
      ['SPEAKER_00', true, "Of course, I'll drop it off at your place on Thursday evening."],
    ]),
  );
  assert.doesNotMatch(title, /worr/i);
});
