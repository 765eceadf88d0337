import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TranscriptInput } from '../../src/processing/engine.js';
import { analysisOf } from '../../src/processing/local/analysis.js';
import { createLocalEngine } from '../../src/processing/local/index.js';
import { kinPlaces } from '../../src/processing/local/memory-kin-places.js';
import { pastimesKept } from '../../src/processing/local/memory-pastimes.js';
import { rolesOfWearer } from '../../src/processing/local/memory-roles.js';
import { dialogue, memo } from './inputs.js';

const engine = createLocalEngine();

async function contentsOf(input: TranscriptInput): Promise<string[]> {
  return (await engine.extractMemories(input, [])).map((memory) => memory.content);
}

function placesOf(input: TranscriptInput): string[] {
  const { kin, own } = kinPlaces(analysisOf(input));
  return [...kin, ...own].map((fact) => fact.content);
}

test('where the wearer’s family lives, said on the way to something else, is kept', async () => {
  assert.deepEqual(placesOf(memo("After the gig I'm at my mum's in Cardiff for the week, so no rehearsal.")), [
    "User's mum lives in Cardiff",
  ]);
  assert.deepEqual(placesOf(memo('Remind me to ring my parents in Braga on Sunday about the flights.')), [
    "User's parents live in Braga",
  ]);
  assert.deepEqual(placesOf(memo("I'll bring my mother to the tasting, she'll drive down from Kuantan.")), [
    "User's mother lives in Kuantan",
  ]);
  const told = dialogue([
    ['Hana', false, 'Kenta, could you call your aunt in Sendai and ask about the spare room?'],
    ['Kenta', true, 'Sure, tonight.'],
  ]);
  assert.deepEqual(placesOf(told), ["User's aunt lives in Sendai"]);
  const stored = await contentsOf(memo("After the gig I'm at my mum's in Cardiff for the week."));
  assert.ok(stored.includes("User's mum lives in Cardiff"), JSON.stringify(stored));
});

test('a relative met at a station, a day, or another’s relative is no place of the wearer’s family', () => {
  assert.deepEqual(placesOf(memo('I pick up my mom from Central Station on Saturday at two.')), []);
  assert.deepEqual(placesOf(memo('My sister in March is a nightmare, she has exams.')), []);
  const theirs = dialogue([
    ['Ola', true, 'How is your brother in Oslo doing?'],
    ['Per', false, 'Fine, busy.'],
  ]);
  assert.deepEqual(placesOf(theirs), []);
});

test('a name beside a two-word relation is that relative: "Lucía, my business partner"', async () => {
  const contents = await contentsOf(
    memo('Mireia, my business partner, lives in Gràcia, so the office should be central.'),
  );
  assert.ok(contents.includes("User's business partner is named Mireia"), JSON.stringify(contents));
});

test('a name cared for as an animal (dog food, the vet, a booster) is the wearer’s pet; a vet, a place or a business is not', async () => {
  const food = dialogue([
    ['Tom', false, "We're out of dog food, Nacho's been eating the last of it."],
    ['Linh', true, "I'll grab the big bag on the way home."],
  ]);
  const fed = await contentsOf(food);
  assert.ok(fed.includes("User's dog is named Nacho"), JSON.stringify(fed));
  const errands = memo(
    'Errands. Ring the vet in the morning and see if they can squeeze Mango in. Then the bank. Mango hates the car, so the big crate.',
  );
  assert.ok(
    (await contentsOf(errands)).includes("User's pet is named Mango"),
    JSON.stringify(await contentsOf(errands)),
  );
  const notPets = memo(
    'Book the booster at Willow Vet in Harlow. Dr. Amara Osei said the flea treatment can wait. Harlow is far.',
  );
  const contents = await contentsOf(notPets);
  assert.ok(!contents.some((content) => /named (?:Willow|Harlow|Amara)/.test(content)), JSON.stringify(contents));
});

test('the wearer’s own home and upbringing said in passing: "my place in Burwood", "growing up in Recife"; a home left is not', async () => {
  assert.deepEqual(placesOf(memo('Book club is Thursday, same time, my place in Carlton.')), ['User lives in Carlton']);
  assert.deepEqual(placesOf(memo('Growing up in Natal it was me doing the shopping at ten.')), [
    'User grew up in Natal',
  ]);
  assert.deepEqual(placesOf(memo('I moved out of my flat in Vinohrady at the end of July.')), []);
  // Someone else's house is theirs: "your place in Carlton" from the wearer names no home of theirs.
  assert.deepEqual(placesOf(memo('Is the party at your place in Carlton?')), []);
  const stored = await contentsOf(memo('Book club is Thursday, same time, my place in Carlton.'));
  assert.ok(stored.includes('User lives in Carlton'), JSON.stringify(stored));
});

test('a role shown by how it is used: "as treasurer, my jobs", "treasurer sahib", "Madam Chair", "You teachers"', async () => {
  const roles = (input: TranscriptInput) => rolesOfWearer(analysisOf(input)).map((fact) => fact.content);
  assert.deepEqual(roles(memo('So, as secretary, my jobs this month. One, the minutes.')), ['User is the secretary']);
  const asked = dialogue([
    ['Amina', false, 'Chidi, as treasurer, can you send the bank statement to everyone?'],
    ['Chidi', true, 'Sure, tonight.'],
  ]);
  assert.deepEqual(roles(asked), ['User is the treasurer']);
  const addressed = dialogue([
    ['Farah', false, 'One more thing, captain sahib: the kit money.'],
    ['Imran', true, 'Yes, yes, I have it.'],
  ]);
  assert.deepEqual(roles(addressed), ['User is the captain']);
  const lumped = dialogue([
    ['Mum', false, 'You nurses, always working weekends.'],
    ['Ana', true, 'Someone has to.'],
  ]);
  assert.deepEqual(roles(lumped), ['User is a nurse']);
  for (const text of ['As a kid, I loved the beach.', 'As a rule, I never drive at night.']) {
    assert.deepEqual(roles(memo(text)), [], text);
  }
  // Said to someone else, with no "you" for the wearer, the role is theirs.
  const theirs = dialogue([
    ['Coach', false, 'As captain, Dele will speak first at the dinner.'],
    ['Sam', true, 'Fine by me.'],
  ]);
  assert.deepEqual(roles(theirs), []);
  const stored = await contentsOf(memo('So, as secretary, my jobs this month. One, the minutes.'));
  assert.ok(stored.includes('User is the secretary'), JSON.stringify(stored));
});

test('a pastime the wearer keeps, said while planning around it; a doctor’s "no running" or someone else’s is none', () => {
  const kept = (text: string) => pastimesKept(analysisOf(memo(text))).map((fact) => fact.content);
  assert.deepEqual(kept("Parents' evening is Thursday, I'll be there till eight, so no choir that night."), [
    'User is in a choir',
  ]);
  assert.deepEqual(kept('Wednesday is five-a-side as usual, so keep the evening free.'), [
    'User plays five-a-side regularly',
  ]);
  assert.deepEqual(kept('Our book club did that one in March.'), ['User is in a book club']);
  assert.deepEqual(kept('I missed pottery again tonight, third week running.'), ['User does pottery regularly']);
  for (const text of [
    'No running for three weeks, just cycling.',
    'Can he skip swimming on the smoky days?',
    'Emil has his handball tournament on Saturday.',
  ]) {
    assert.deepEqual(kept(text), [], text);
  }
});

test('an office called out to the wearer ("Yes, captain.") or named as their own ("the coach, which is me")', () => {
  const roles = (input: TranscriptInput) => rolesOfWearer(analysisOf(input)).map((fact) => fact.content);
  const called = dialogue([
    ['Ahmed', false, 'And the summer league registration, captain.'],
    ['Jason', true, 'Yes, yes, this week.'],
  ]);
  assert.deepEqual(roles(called), ['User is the captain']);
  // Called out to someone else, who answers: not the wearer's office.
  const other = dialogue([
    ['Ahmed', false, 'Thanks, captain.'],
    ['Bilal', false, 'No problem.'],
    ['Jason', true, 'Okay, next.'],
  ]);
  assert.deepEqual(roles(other), []);
  assert.deepEqual(roles(memo('Bring the slips, otherwise the parents blame the coach, which is me.')), [
    'User is the coach',
  ]);
});

test('the parents named as "Mum and Dad" live where the wearer places them (a newcomer’s flowers to Inverness)', () => {
  assert.deepEqual(
    placesOf(memo('Order flowers for Mum and Dad in Inverness by Wednesday, it is their anniversary.')),
    ["User's parents live in Inverness"],
  );
  assert.deepEqual(placesOf(memo("I'm at my mum and dad's place in Leeds this weekend.")), [
    "User's parents live in Leeds",
  ]);
});

test('a pastime in the present simple is a habit unless a day ahead makes it a plan, and is not said twice', async () => {
  const kept = (text: string) => pastimesKept(analysisOf(memo(text))).map((fact) => fact.content);
  assert.deepEqual(kept("I'm out on the golf course every Saturday, rain or shine."), ['User plays golf regularly']);
  assert.deepEqual(kept('I play cricket for the village side.'), ['User plays cricket regularly']);
  assert.deepEqual(kept('I play cricket tomorrow with the lads.'), []);
  assert.deepEqual(kept('I missed pottery again tonight, third week running.'), ['User does pottery regularly']);
  // The fact of its sentence already says it: one memory, not two.
  const stored = await contentsOf(memo('I live in Lisbon and I really enjoy playing the violin every evening.'));
  assert.equal(stored.filter((content) => /violin/.test(content)).length, 1, JSON.stringify(stored));
});

test('a pastime kept "still", taken as a hobby, or switched to; a dog named with its breed', async () => {
  const kept = (text: string) => pastimesKept(analysisOf(memo(text))).map((fact) => fact.content);
  assert.deepEqual(kept("And honestly I've switched to climbing, I've barely been to the gym."), [
    'User goes climbing regularly',
  ]);
  assert.deepEqual(kept('Yeah, still running. Three mornings a week, along the lake.'), [
    'User goes running regularly',
  ]);
  assert.deepEqual(kept('The pottery started as a hobby, and now the living room is full of bowls.'), [
    'User does pottery regularly',
  ]);
  const pet = dialogue([
    ['Physio', false, 'Any pets at home?'],
    ['Dev', true, "Bella, a springer spaniel. She's mental, she'd walk all day."],
  ]);
  const stored = await contentsOf(pet);
  assert.ok(stored.includes("User's dog is named Bella"), JSON.stringify(stored));
});

test('a cat named with its coat ("Juniper, our tabby") is the wearer’s cat', async () => {
  const stored = await contentsOf(
    memo('Sunday jobs. Juniper, our tabby, has been sleeping in the laundry basket again.'),
  );
  assert.ok(stored.includes("User's cat is named Juniper"), JSON.stringify(stored));
});

test('whom the wearer works under, the living they drive for, and a pastime moved are theirs', () => {
  const roles = (text: string) => rolesOfWearer(analysisOf(memo(text))).map((fact) => fact.content);
  assert.deepEqual(roles("I'll need to ask my head teacher for the day, but she'll be fine."), ['User is a teacher']);
  assert.deepEqual(roles("After the wedding I'm switching to days, my head nurse promised."), ['User is a nurse']);
  assert.deepEqual(roles("Since the layoff in August I'm driving Uber."), ['User drives for Uber']);
  assert.deepEqual(roles('I drive a taxi at night.'), ['User drives a taxi']);
  assert.deepEqual(roles("My daughter's head teacher called."), []);
  const kept = (text: string) => pastimesKept(analysisOf(memo(text))).map((fact) => fact.content);
  assert.deepEqual(kept("Fine, I'll move my badminton."), ['User plays badminton regularly']);
});

test('a relative named in an errand ("I send my nephew Diego") is stored as whom the wearer has', async () => {
  assert.deepEqual(await contentsOf(memo('For high places I send my nephew Diego.')), ["User's nephew is named Diego"]);
});

test('"my wife is due in May" and "I\'m due in March" are a baby expected, not a payment', async () => {
  assert.deepEqual(await contentsOf(memo('My wife is due in May, the baby.')), ["User's wife is expecting a baby"]);
  assert.deepEqual(await contentsOf(memo("I'm due in March.")), ['User is expecting a baby in March']);
});

test('a name starting a school year or a few weeks old is the wearer’s child; one "in class three" is not', async () => {
  assert.deepEqual(await contentsOf(memo('Okay naman. Bea is starting grade one in August, so, gastos, you know.')), [
    "User's child is named Bea",
  ]);
  assert.deepEqual(await contentsOf(memo('Vihaan is three weeks old today, actually.')), [
    "User's child is named Vihaan",
  ]);
  assert.deepEqual(await contentsOf(memo('Tom is in class three.')), []);
});
