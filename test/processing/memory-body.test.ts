import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analysisOf } from '../../src/processing/local/analysis.js';
import { createLocalEngine } from '../../src/processing/local/index.js';
import { bodyFacts } from '../../src/processing/local/memory-body.js';
import { medicineFacts } from '../../src/processing/local/memory-medicines.js';
import { endsWithOthersPossessive } from '../../src/processing/local/text.js';
import { dialogue, memo } from './inputs.js';

const engine = createLocalEngine();

function bodyOf(input: Parameters<typeof analysisOf>[0]): string[] {
  return bodyFacts(analysisOf(input)).map((fact) => fact.content);
}

test('a knee asked after, with the wearer limping, is a troubled knee of theirs, and is stored', async () => {
  const input = dialogue([
    ['Farid', false, "Before we start the budget: how's the knee? You were limping at the offsite."],
    ['Maya', true, 'Getting there. Two more weeks of exercises, then I can run again.'],
    ['Farid', false, 'Good. Now, the budget.'],
  ]);
  assert.deepEqual(bodyOf(input), ['User has trouble with their knee']);
  const memories = (await engine.extractMemories(input, [])).map((memory) => memory.content);
  assert.ok(memories.includes('User has trouble with their knee'), JSON.stringify(memories));
});

test('a part the wearer complains of in passing is theirs: "Shoulder’s playing up again", "Also my back."', () => {
  assert.deepEqual(bodyOf(memo("Shoulder's playing up again after the move. Book the physio.")), [
    'User has trouble with their shoulder',
  ]);
  assert.deepEqual(bodyOf(memo('Groceries, then the bank. Also my back. Then the kids.')), [
    'User has trouble with their back',
  ]);
});

test('surgery and injury said near the part name it, with the inner part the conversation names', () => {
  assert.deepEqual(bodyOf(memo('I had ACL surgery on that knee in 2019, so no skiing for me.')), [
    'User had ACL surgery',
  ]);
  const rehab = dialogue([
    ['Physio', false, "How's the knee been since Thursday?"],
    ['Ines', true, 'Stiff in the mornings.'],
    ['Physio', false, 'Normal at eight weeks after the meniscus repair. Let us do the step-downs.'],
  ]);
  assert.deepEqual(bodyOf(rehab), ['User had meniscus surgery on their knee']);
  assert.deepEqual(bodyOf(memo('Pulled my left hamstring at football, so no running this week.')), [
    'User has a left hamstring injury',
  ]);
});

test('a part that is someone else’s, a warning, an idiom or a place is no fact about the wearer', () => {
  for (const text of [
    "My dad's knee is bad again, he can't do the stairs.",
    "Don't carry that, you'll hurt your back.",
    "Don't worry, I've got your back.",
    "I'll come back on Monday with the forms. The back garden needs mowing.",
    'Lifting a forty kilo dog is bad for your back.',
    'My neck was a little stiff yesterday but it is fine now.',
    'My knees will forgive you for these chairs.',
  ]) {
    assert.deepEqual(bodyOf(memo(text)), [], text);
  }
});

test('a standing condition named as the wearer’s is kept; a passing one is not; at the vet nothing is the wearer’s', () => {
  assert.deepEqual(bodyOf(memo('The asthma is always worse when the air is dusty like this.')), ['User has asthma']);
  assert.deepEqual(bodyOf(memo('The rash came back this morning, so I skipped the gym.')), []);
  const vet = dialogue([
    ['Vet', false, "How's the hip since the vaccines? Is she still limping?"],
    ['Noor', true, 'A bit, in the mornings.'],
  ]);
  assert.deepEqual(bodyOf(vet), []);
});

test('the medicine the wearer is on, said as an errand, is known by its name’s stem; someone else’s or one asked about is not', async () => {
  const medicines = (input: Parameters<typeof analysisOf>[0]) =>
    medicineFacts(analysisOf(input)).map((fact) => fact.content);
  assert.deepEqual(medicines(memo("I'm almost out of my escitalopram, the clinic is shut till Tuesday.")), [
    'User takes escitalopram',
  ]);
  assert.deepEqual(medicines(memo("Hi, it's the lisinopril refill, the ten milligram.")), ['User takes lisinopril']);
  assert.deepEqual(medicines(memo("I can't take naproxen, it wrecks my stomach.")), ["User can't take naproxen"]);
  const counter = dialogue([
    ['Pharmacist', false, 'Name and date of birth?'],
    ['Rui', true, 'Rui Costa, third of May.'],
    ['Pharmacist', false, 'Okay... fluoxetine repeat. Still the twenty milligrams?'],
  ]);
  assert.deepEqual(medicines(counter), ['User takes fluoxetine']);
  for (const text of [
    "My dad's atorvastatin is running out, I'll pick it up.",
    'Can I take ibuprofen with this?',
    "I'm allergic to amoxicillin.",
    'The doctor had the old dose of the bisoprolol, Mum is bringing her list.',
    'Your cholesterol is fine.',
  ]) {
    assert.deepEqual(medicines(memo(text)), [], text);
  }
  const stored = (await engine.extractMemories(memo("I'm almost out of my escitalopram, the clinic is shut."), [])).map(
    (memory) => memory.content,
  );
  assert.ok(stored.includes('User takes escitalopram'), JSON.stringify(stored));
});

test('an allergy another speaker names as the wearer’s, or reads out for them to confirm, is theirs', () => {
  const spoken = dialogue([
    ['Chef', false, 'Careful with the bisque, Omar, your shellfish allergy.'],
    ['Omar', true, 'I know, I know.'],
  ]);
  assert.ok(bodyOf(spoken).includes('User is allergic to shellfish'), JSON.stringify(bodyOf(spoken)));
  const readOut = dialogue([
    ['Dentist', false, 'Before we start, confirming from your file: allergic to latex, no other allergies?'],
    ['Mei', true, "Latex, that's it."],
  ]);
  assert.ok(bodyOf(readOut).includes('User is allergic to latex'), JSON.stringify(bodyOf(readOut)));
  const denied = dialogue([
    ['Dentist', false, 'Allergic to penicillin, is that still right?'],
    ['Mei', true, 'No, that was my sister.'],
  ]);
  assert.deepEqual(bodyOf(denied), []);
  const asked = dialogue([
    ['Doctor', false, 'Are you allergic to anything?'],
    ['Mei', true, 'Yes, a few things.'],
  ]);
  assert.deepEqual(bodyOf(asked), []);
});

test('medicine named by what it treats, a reading out of range, and a side and a part said alone', () => {
  const facts = (input: Parameters<typeof analysisOf>[0]) => bodyOf(input);
  assert.deepEqual(facts(memo('And this one is for me: take the blood pressure tablets in the morning.')), [
    'User takes blood pressure medication',
  ]);
  assert.deepEqual(facts(memo('No red meat for me since the doctor said my cholesterol is high.')), [
    'User has high cholesterol',
  ]);
  assert.deepEqual(facts(memo("Dad's cholesterol is high, so I take his tablets round.")), []);
  const reply = dialogue([
    ['Physio', false, 'Which one is it?'],
    ['Wiremu', true, 'Left hamstring.'],
  ]);
  assert.deepEqual(facts(reply), ['User has trouble with their left hamstring']);
});

test('a dose read out at the counter is the wearer’s medicine; how the wearer is keeping is no fact', async () => {
  const counter = dialogue([
    ['Pharmacist', false, 'The usual, is it? Levothyroxine, seventy-five micrograms.'],
    ['Rowan', true, "That's the one."],
  ]);
  const medicines = medicineFacts(analysisOf(counter)).map((fact) => fact.content);
  assert.deepEqual(medicines, ['User takes levothyroxine']);
  const keeping = dialogue([
    ['Pharmacist', false, 'And how are you keeping these days?'],
    ['Rowan', true, "Oh, I'm still getting on alright, thanks."],
  ]);
  const stored = (await engine.extractMemories(keeping, [])).map((memory) => memory.content);
  assert.deepEqual(stored, []);
});

test('a condition the wearer was diagnosed with, or says alone ("Prediabetic, she said."), is theirs, once', async () => {
  assert.deepEqual(bodyOf(memo('I have been on it since I was diagnosed hypothyroid, nine years now.')), [
    'User is hypothyroid',
  ]);
  assert.deepEqual(bodyOf(memo('I got diagnosed with coeliac disease last year.')), ['User has coeliac disease']);
  const said = (await engine.extractMemories(memo('Prediabetic, she said. So no more sugar in the tea.'), [])).map(
    (memory) => memory.content,
  );
  assert.ok(said.includes('User is prediabetic'), JSON.stringify(said));
  // Said whole in a fact that is kept, the condition is not stored again on its own.
  const whole = (
    await engine.extractMemories(
      memo("I've been hypothyroid since I was twenty. I was diagnosed hypothyroid at uni."),
      [],
    )
  ).map((memory) => memory.content);
  assert.ok(whole.includes('User has been hypothyroid since they were twenty'), JSON.stringify(whole));
  assert.ok(!whole.includes('User is hypothyroid'), JSON.stringify(whole));
});

test('someone else’s possessive right before a thing is read the same way by every fact reader', () => {
  for (const before of ['his ', "Mum's left ", "my son's ", 'her usual '])
    assert.equal(endsWithOthersPossessive(before), true, before);
  for (const before of ["It's lower ", "How's the ", "That's my ", 'my ', 'the '])
    assert.equal(endsWithOthersPossessive(before), false, before);
});

test('another speaker on a medicine ("I am on metformin now") is theirs; "you are on …" is the wearer’s', async () => {
  const brother = dialogue([
    ['Kunle', false, "I am on metformin now, doctor's orders."],
    ['Dara', true, 'Ah, welcome to the club. I take levothyroxine every morning myself.'],
  ]);
  const medicines = medicineFacts(analysisOf(brother)).map((fact) => fact.content);
  assert.deepEqual(medicines, []);
  const stored = (await engine.extractMemories(brother, [])).map((memory) => memory.content);
  assert.ok(!stored.some((content) => /metformin/.test(content)), stored.join(' | '));
  assert.ok(stored.includes('User takes levothyroxine every morning'), stored.join(' | '));
  const visit = dialogue([
    ['Doctor', false, 'You are still on amlodipine, right?'],
    ['Dara', true, 'Yes.'],
  ]);
  assert.deepEqual(
    medicineFacts(analysisOf(visit)).map((fact) => fact.content),
    ['User takes amlodipine'],
  );
});

test('"a problem with the knee" is the wearer’s trouble; "no problem, my back is fine" is none', () => {
  assert.deepEqual(bodyOf(memo('Since I fell last year I have a problem with the knee, so I send my nephew up.')), [
    'User has trouble with their knee',
  ]);
  assert.deepEqual(bodyOf(memo("I've got trouble with my shoulder since the move.")), [
    'User has trouble with their shoulder',
  ]);
  assert.deepEqual(bodyOf(memo('No problem, my back is fine.')), []);
  assert.deepEqual(bodyOf(memo("My knee's fine.")), []);
});
