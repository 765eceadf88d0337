import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLocalEngine } from '../../src/processing/local/index.js';
import { dialogue } from './inputs.js';

const engine = createLocalEngine();

async function categoryOf(lines: Array<[string, boolean, string]>): Promise<string> {
  return (await engine.structure(dialogue(lines))).category;
}

test('a dentist visit stays a health visit when a novel comes up in the chair', async () => {
  const category = await categoryOf([
    ['Dentist', false, 'Hi, come through to the dentist chair. Are you reading anything good?'],
    ['Sam', true, 'A long novel about a lighthouse keeper, the book is slow but I love the chapters.'],
    ['Dentist', false, 'Lovely. So the tooth at the back is sore? Let me look at that filling.'],
    ['Sam', true, 'Yes, the tooth hurts with cold drinks.'],
    ['Dentist', false, 'The filling has cracked. We will replace it next week.'],
  ]);
  assert.equal(category, 'health');
});

test('a call to the garage is an errand, though the mechanic talks football', async () => {
  const category = await categoryOf([
    ['Garage', false, 'Morning, Hilltop Garage, Dave the mechanic speaking.'],
    ['Sam', true, 'Hi, I dropped the car off yesterday for the brakes.'],
    ['Garage', false, 'Right, the pads are worn. Did you see the football last night? What a match.'],
    ['Sam', true, 'I missed the game. How much for the brakes?'],
    ['Garage', false, 'About two hundred with the discs. Ready by four.'],
  ]);
  assert.equal(category, 'personal');
});

test('a lecture is education, not work', async () => {
  const category = await categoryOf([
    ['Lecturer', false, 'Good morning everyone, welcome to the third lecture of the module.'],
    ['Student', false, 'Will the slides be on the course page?'],
    ['Lecturer', false, 'Yes. For the assignment, read chapter two before the seminar on Thursday.'],
    ['Sam', true, 'Is the essay deadline still Friday?'],
    ['Lecturer', false, 'The essay is due Friday, the exam is in June.'],
  ]);
  assert.equal(category, 'education');
});

// The category model (trained on the blind corpora) files a short chat about Mum's knee and her clinic
// under health as often as family; both are what a reader accepts, and neither is the setting's work.
test('talking with mum about her doctor is family or health, never the setting of a visit elsewhere', async () => {
  const category = await categoryOf([
    ['Mother', false, 'Hello love, are you coming on Sunday?'],
    ['Sam', true, 'Hi Mum, yes, I will be there for lunch.'],
    ['Mother', false, 'Good. The doctor says my knee is fine, the clinic was very quick.'],
    ['Sam', true, 'That is great news, Mum. I will bring a cake.'],
  ]);
  assert.ok(['family', 'health'].includes(category), category);
});

test('mentioning a wife or the kids does not make a plumber visit family', async () => {
  const category = await categoryOf([
    ['Plumber', false, 'Hiya, I am the plumber, you called about the leak under the sink?'],
    ['Sam', true, 'Yes, my wife noticed it this morning, the kids had been splashing.'],
    ['Plumber', false, 'The washer has gone. I will replace the washer and the pipe fitting.'],
    ['Sam', true, 'Great, thanks. Can you send the invoice by email?'],
  ]);
  assert.ok(['personal', 'real'].includes(category), category);
});
