import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ExistingActionItem, TranscriptInput } from '../../src/processing/engine.js';
import { createLocalEngine } from '../../src/processing/local/index.js';
import { parseTokens } from '../../src/processing/local/nlp.js';
import { dialogue, memo, wallClock } from './inputs.js';

// Conversations start on Wednesday 2026-03-04 09:00 in New York (UTC-5) unless stated otherwise.
const engine = createLocalEngine();

async function items(
  input: TranscriptInput,
  recent: ExistingActionItem[] = [],
): Promise<Array<[string, string | null]>> {
  const extracted = await engine.extractActionItems(input, recent);
  return extracted.map((item) => [item.description, wallClock(item.dueAt, input.timezone)]);
}

const DUE_TABLE: Array<[string, string, string | null]> = [
  ["I'll email the landlord tomorrow morning.", 'Email the landlord', '2026-03-05T09:00'],
  ['I need to send the invoice to Mark by Friday.', 'Send the invoice to Mark', '2026-03-06T23:59'],
  ['Remind me to call the pharmacy this afternoon.', 'Call the pharmacy', '2026-03-04T14:00'],
  ["I'll pick up the cake at noon tomorrow.", 'Pick up the cake', '2026-03-05T12:00'],
  ['I must submit the grant report on Thursday evening.', 'Submit the grant report', '2026-03-05T18:00'],
  ['I have to renew my license ASAP.', 'Renew my license', '2026-03-04T11:00'],
  ["I'll finish the report by the end of the week.", 'Finish the report', '2026-03-06T23:59'],
  ["I'll draft the growth plan by the end of next month.", 'Draft the growth plan', '2026-04-30T23:59'],
  ["I'll send the slides by the end of next week.", 'Send the slides', '2026-03-13T23:59'],
  ['Pay rent by end of day.', 'Pay rent', '2026-03-04T23:59'],
  // An errand to a place, and a message to pass on to someone named.
  ['I have to go to the bank tomorrow.', 'Go to the bank', '2026-03-05T23:59'],
  ["I'm telling Camila she opens the shop on Friday.", 'Tell Camila she opens the shop', '2026-03-06T23:59'],
  ['Note to self: renew the car insurance before the 30th.', 'Renew the car insurance', '2026-03-30T23:59'],
  // British and Australian clock talk.
  ["I'll pick up Gran at half twelve.", 'Pick up Gran', '2026-03-04T12:30'],
  ["I'll drop the key in this arvo.", 'Drop the key', '2026-03-04T14:00'],
  // Said on the 4th: "before the 4th" is next month's, "by the 4th" today.
  ["I'll bring the card back before the 4th.", 'Bring the card back', '2026-04-04T23:59'],
  ["I'll pay the plumber by the 4th.", 'Pay the plumber', '2026-03-04T23:59'],
  // "this month" is its last day; a day named before it wins; a time owning a noun stays in the words.
  ["I'll send the lease renewal this month.", 'Send the lease renewal', '2026-03-31T23:59'],
  ["I'll renew the permit before the fifteenth this month.", 'Renew the permit', '2026-03-15T23:59'],
  ["I'll pay this month's fee tomorrow.", "Pay this month's fee", '2026-03-05T23:59'],
  // An adverb inside "I'm going to".
  ["I'm also going to finish the accessibility audit by Friday.", 'Finish the accessibility audit', '2026-03-06T23:59'],
  // An app's name used as the verb of sending a message or money.
  [
    "I'll WhatsApp the cousins in Durban by the end of the month.",
    'WhatsApp the cousins in Durban',
    '2026-03-31T23:59',
  ],
  ["I'll Venmo Dana the forty bucks tomorrow.", 'Venmo Dana the forty bucks', '2026-03-05T23:59'],
  // A memo's heading before an instruction; a figure chrono cuts short ("at three thousand") is no time.
  [
    'So, action for me: revise the production plan and send it to Mikkel by Monday.',
    'Revise the production plan and send it to Mikkel',
    '2026-03-09T23:59',
  ],
  [
    "I'll send the quote to Mikkel with a fallback at three thousand by Monday.",
    'Send the quote to Mikkel with a fallback at three thousand',
    '2026-03-09T23:59',
  ],
  ["I'm going to book the venue for next week.", 'Book the venue', '2026-03-11T23:59'],
  // "this week" is the working week's Friday (said on a Wednesday).
  ["I'll send the lease renewal later this week.", 'Send the lease renewal', '2026-03-06T23:59'],
  // Counts past twelve said in words ("twenty-one days") are counted too.
  ["I'll send the deposit in twenty-one days.", 'Send the deposit', '2026-03-25T23:59'],
  // A date in someone else's clause, joined by "and", is not the wearer's.
  ['Tom will order the tiles on Monday and I will call the plumber.', 'Call the plumber', null],
  // Straight after the conversation: today.
  ["I'll forward the receipt to Dina after this.", 'Forward the receipt to Dina', '2026-03-04T23:59'],
  ["After this meeting I'll email Ana the minutes.", 'Email Ana the minutes', '2026-03-04T23:59'],
  // The minutes of a meeting are no clock reading.
  ['Send the minutes to the board by Friday.', 'Send the minutes to the board', '2026-03-06T23:59'],
  // Spoken deadlines chrono does not read whole (Wednesday the 4th).
  ['I need to send the budget to Kemi by EOD.', 'Send the budget to Kemi', '2026-03-04T23:59'],
  ['I have to file the expenses by close of business Friday.', 'File the expenses', '2026-03-06T23:59'],
  ["I'll reconcile the accounts by month-end.", 'Reconcile the accounts', '2026-03-31T23:59'],
  ["I'll finish the audit by the end of the quarter.", 'Finish the audit', '2026-03-31T23:59'],
  ["I'll renew the visa in a fortnight.", 'Renew the visa', '2026-03-18T23:59'],
  ['I need to book a follow-up for a fortnight from today.', 'Book a follow-up', '2026-03-18T23:59'],
  ["I'll call the surveyor a week from Friday.", 'Call the surveyor', '2026-03-13T23:59'],
  ["I'll pay the builder Tuesday week.", 'Pay the builder', '2026-03-17T23:59'],
  ["I'll visit Nan a week today.", 'Visit Nan', '2026-03-11T23:59'],
  ["I'll book the flights by mid-April.", 'Book the flights', '2026-04-15T23:59'],
  ["I'll move the savings at the beginning of next month.", 'Move the savings', '2026-04-01T23:59'],
  // A weekday placed in its month, on a date, or a week after the coming one.
  ["I'll bring the budget on the last Saturday of May.", 'Bring the budget', '2026-05-30T23:59'],
  ["I'll send the report on the first Monday of next month.", 'Send the report', '2026-04-06T23:59'],
  ["I'll pay the deposit on Friday the tenth.", 'Pay the deposit', '2026-04-10T23:59'],
  ["I'll call the surveyor the Tuesday after next.", 'Call the surveyor', '2026-03-17T23:59'],
  ["I'll sort the garage early next week.", 'Sort the garage', '2026-03-09T23:59'],
  ["I'll return the drill before the weekend.", 'Return the drill', '2026-03-06T23:59'],
  ["I'll mow the lawn over the weekend.", 'Mow the lawn', '2026-03-07T23:59'],
  ["I'll ring the garage at quarter past ten tomorrow.", 'Ring the garage', '2026-03-05T10:15'],
  ["I'll meet the courier at quarter to four.", 'Meet the courier', '2026-03-04T15:45'],
  ["I'll collect the prescription by Friday lunchtime.", 'Collect the prescription', '2026-03-06T12:00'],
  ["I'll email the tutor in half an hour.", 'Email the tutor', '2026-03-04T09:30'],
  ['I need to order the tiles sometime next week.', 'Order the tiles', '2026-03-11T23:59'],
  // Straight after the conversation is the same day.
  ["I'll change the PIN right after this call.", 'Change the PIN', '2026-03-04T23:59'],
  ["I'll pick up the capsules on the way home.", 'Pick up the capsules', '2026-03-04T23:59'],
  ["I'll call the bank as soon as I hang up.", 'Call the bank', '2026-03-04T23:59'],
  ["I'll confirm with Sasha on the way out.", 'Confirm with Sasha', '2026-03-04T23:59'],
  ["I'll buy the family membership before we leave.", 'Buy the family membership', '2026-03-04T23:59'],
  ["I'll email the landlord when I get home.", 'Email the landlord', '2026-03-04T23:59'],
  ["I'll ring the garage later.", 'Ring the garage', '2026-03-04T23:59'],
  // A day corrected while speaking: the one said after the correction is meant.
  ["I'll call the plumber tomorrow, no wait, Friday.", 'Call the plumber', '2026-03-06T23:59'],
  [
    "I'll move my share into the joint account on Friday, for the rent— no wait, Thursday.",
    'Move my share into the joint account for the rent',
    '2026-03-05T23:59',
  ],
  // Taken back in the same breath: no task; something else already done leaves the task standing.
  ['And I should text Jen back about brunch, actually no, I already did that at lunch.', '', null],
  ["I'll send the forms, forget it, they're online anyway.", '', null],
  ["I'll call the plumber tomorrow, and I already did the invoice.", 'Call the plumber', '2026-03-05T23:59'],
  // "from now" counts ahead; it is not something under way now.
  ["I'll book the appointment for two weeks from now.", 'Book the appointment', '2026-03-18T23:59'],
  // A verb joined by a bare "and" shares the day said before it, not the one of the sentence before.
  ["Saturday the 21st then? I'll book it tonight and make a group chat.", 'Make a group chat', '2026-03-04T18:00'],
  // A request back after a comma is the listener's, not part of the wearer's task.
  [
    "I'll transfer half the cake money tonight, send me the account again.",
    'Transfer half the cake money',
    '2026-03-04T18:00',
  ],
  // How long something takes is no date; what has to happen is still a task.
  ["I'll have to talk to my printer, they usually take four days.", 'Talk to my printer', null],
  ["I'll take the antibiotics for ten days.", 'Take the antibiotics for ten days', null],
  ["The course lasts three weeks, so I'll book the hotel.", 'Book the hotel', null],
  // Seeing someone whose job is seeing people is an appointment; a consequence is no plan.
  ['I need to see the dentist next week.', 'See the dentist', '2026-03-11T23:59'],
  ["Otherwise I'll have to call the bank.", '', null],
  // Leaving for somewhere is a trip, not the end of this conversation.
  ["I'll call the vet before I leave for Lisbon.", 'Call the vet', null],
  [
    "I'll pick up the prescription from the chemist, it's ready after two.",
    'Pick up the prescription from the chemist',
    '2026-03-04T14:00',
  ],
  // A promise reported is still owed.
  ["I promised Mum I'd call the bank on Monday.", 'Call the bank', '2026-03-09T23:59'],
  ['Things to do: email Marta the contract by Friday.', 'Email Marta the contract', '2026-03-06T23:59'],
  // "would" in an earlier clause does not make the promise hypothetical; a condition does.
  ['The packaging would be extra, so I will send the quote by Friday.', 'Send the quote', '2026-03-06T23:59'],
  ["If the price is right, then I'll buy the van.", '', null],
  // A verb whose object follows its preposition has one.
  ["I'll deal with the landlord tomorrow.", 'Deal with the landlord', '2026-03-05T23:59'],
  ['I need to buy corn on the cob.', 'Buy corn on the cob', null],
  ['I need to water the plants.', 'Water the plants', null],
];

for (const [text, description, due] of DUE_TABLE) {
  test(`"${text}" → ${description} due ${due ?? 'none'} (New York)`, async () => {
    // An empty description: no task at all.
    assert.deepEqual(await items(memo(text)), description === '' ? [] : [[description, due]]);
  });
}

test('a day without a time is due at 23:59 local, also across the DST change', async () => {
  const input = memo('I need to file the permit on Monday.', { startedAt: '2026-03-06T12:00:00-05:00' });
  const [item] = await engine.extractActionItems(input, []);
  assert.equal(wallClock(item.dueAt, 'America/New_York'), '2026-03-09T23:59');
  assert.equal(item.dueAt?.toISOString(), '2026-03-10T03:59:00.000Z');
});

test('the start of the day is read in the user timezone, not in UTC', async () => {
  // 22:30 in New York is already the next day in UTC; "tomorrow" must still mean the New York tomorrow.
  const input = memo("I'll call the bank tomorrow morning.", { startedAt: '2026-03-04T22:30:00-05:00' });
  assert.deepEqual(await items(input), [['Call the bank', '2026-03-05T09:00']]);
});

test('a task joined by "and" to a dated one shares its day; a new sentence does not', async () => {
  assert.deepEqual(await items(memo("Tomorrow I'll email Ana and call the bank.")), [
    ['Email Ana', '2026-03-05T23:59'],
    ['Call the bank', '2026-03-05T23:59'],
  ]);
  assert.deepEqual(await items(memo("I'll send the invoice by Friday. And book flights.")), [
    ['Send the invoice', '2026-03-06T23:59'],
    ['Book flights', null],
  ]);
});

test('several dates in one sentence: each task keeps its own', async () => {
  const text =
    'Tomorrow I have to write the release notes and I must get sign-off from legal before the launch on Tuesday.';
  assert.deepEqual(await items(memo(text)), [
    ['Write the release notes', '2026-03-05T23:59'],
    ['Get sign-off from legal before the launch', '2026-03-10T23:59'],
  ]);
});

test('"Deadline is …" said after a request dates it', async () => {
  const input = dialogue([
    ['Mariam', false, 'You should submit an abstract to the estuary conference.'],
    ['Mariam', false, 'Deadline is the end of this month.'],
    ['SPEAKER_00', true, 'Okay, I will.'],
  ]);
  const [item] = await items(input);
  assert.equal(item?.[1], '2026-03-31T23:59', JSON.stringify(item));
});

test('a request to the user is rewritten from the user side, and the reply refines its due date', async () => {
  const input = dialogue([
    ['Dana', false, 'Could you send me the slides before the review on Monday?'],
    ['SPEAKER_00', true, "Sure, I'll send them tonight."],
  ]);
  assert.deepEqual(await items(input), [['Send Dana the slides before the review', '2026-03-04T18:00']]);
});

test("other people's commitments and small favours done on the spot are not the user's tasks", async () => {
  const input = dialogue([
    ['SPEAKER_01', false, "I'll bump the memory limit tonight. Could you pass the salt?"],
    ['SPEAKER_00', true, 'Here you go.'],
  ]);
  assert.deepEqual(await items(input), []);
});

test('past actions, hypotheticals and things done right now are skipped', async () => {
  const text =
    "If I have time I'll repaint the fence. Maybe someday I'll learn Italian. I already sent the forms yesterday. I'm going to call Jo right now.";
  assert.deepEqual(await items(memo(text)), []);
});

test('a pronoun is resolved to the thing named just before', async () => {
  const text = 'Radiohead concert tickets go on sale Friday at 10 am. I have to buy them the minute they drop.';
  assert.deepEqual(await items(memo(text, { startedAt: '2026-03-16T12:00:00-04:00' })), [
    ['Buy Radiohead concert tickets', '2026-03-20T10:00'],
  ]);
});

test('a thing opening the sentence just before is what "it" means, after another task was drafted', async () => {
  const text =
    'Email Florencia tomorrow morning about the invoice. Gear insurance expires on the thirty-first. Renew it, but first get the quote from the other broker.';
  assert.deepEqual(await items(memo(text)), [
    ['Email Florencia about the invoice', '2026-03-05T09:00'],
    ['Renew Gear insurance', '2026-03-31T23:59'],
  ]);
});

test('a verb with only a particle ("phone off") follows up no task and does not move its day', async () => {
  const text =
    'The gallery has to be with them by Sunday the eighth, I promised. So tomorrow and Friday are editing days, nothing else, phone off.';
  assert.deepEqual(await items(memo(text)), [['Submit the gallery', '2026-03-08T23:59']]);
});

test('the same topic twice in one conversation yields one item', async () => {
  const input = dialogue([
    ['Tom', false, 'Could you bring chips and that salsa you made last time?'],
    ['SPEAKER_00', true, "Sure, I'll bring chips and salsa."],
  ]);
  assert.equal((await items(input)).length, 1);
});

const RECENT: ExistingActionItem[] = [
  {
    id: 'a1',
    description: 'Call the plumber about the sink',
    dueAt: null,
    createdAt: new Date('2026-03-03T10:00:00Z'),
  },
  {
    id: 'a2',
    description: 'Submit the expense report',
    dueAt: new Date('2026-03-05T04:59:00Z'),
    createdAt: new Date('2026-03-03T10:00:00Z'),
  },
  { id: 'a3', description: 'Email Mark the budget', dueAt: null, createdAt: new Date('2026-03-03T10:00:00Z') },
];

test('dedupe: a re-mention of an open item is not created again', async () => {
  assert.deepEqual(await items(memo('I need to call the plumber about the sink.'), RECENT), []);
});

test('dedupe: "again" makes the same intent a new item', async () => {
  assert.deepEqual(await items(memo('I need to call the plumber about the sink again.'), RECENT), [
    ['Call the plumber about the sink again', null],
  ]);
});

test('dedupe: a different deadline makes a new item', async () => {
  assert.deepEqual(await items(memo('I need to submit the expense report by Friday.'), RECENT), [
    ['Submit the expense report', '2026-03-06T23:59'],
  ]);
});

test('dedupe: the same deadline is a re-mention', async () => {
  assert.deepEqual(await items(memo('I need to submit the expense report by Wednesday.'), RECENT), []);
});

test('dedupe: a different person makes a new item', async () => {
  assert.deepEqual(await items(memo('I need to email Priya the budget.'), RECENT), [['Email Priya the budget', null]]);
});

test('descriptions start with a verb and stay within 15 words', async () => {
  const text =
    "I'll write a very long and detailed summary of every single decision we made in the planning meeting for the new office building.";
  const [[description]] = await items(memo(text));
  assert.ok(description.split(' ').length <= 15, description);
  assert.match(description, /^Write /);
});

test('a plan in the simple present with a day ahead is a task; a habit, a past act or a question is not', async () => {
  const text =
    'Tomorrow I renew the registration online. I walk the dog every morning. I called the bank yesterday about the card. How do I move the piano on Saturday?';
  assert.deepEqual(await items(memo(text)), [['Renew the registration online', '2026-03-05T23:59']]);
});

test('"I\'m telling you" on a day ahead is emphasis, not a message to pass on', async () => {
  assert.deepEqual(await items(memo("I'm telling you, the queue on Friday will be huge.")), []);
});

test("a memo's instruction after a fronted topic is found; a verb outside the task verbs needs a day", async () => {
  const text =
    "And personal, buy a present for Carmen's birthday, it's Sunday. Download the budgeting app tonight. Take a deep breath.";
  assert.deepEqual(await items(memo(text)), [
    ["Buy a present for Carmen's birthday", '2026-03-08T23:59'],
    ['Download the budgeting app', '2026-03-04T18:00'],
  ]);
});

test("another speaker's need of something the wearer holds is a task to send it", async () => {
  const input = dialogue([
    ['Priya', false, "I'll need your frequent flyer number by Friday. We need a bigger office too."],
    ['Sam', true, 'Sure.'],
  ]);
  assert.deepEqual(await items(input), [['Send my frequent flyer number', '2026-03-06T23:59']]);
});

test('a pronoun inside the line is resolved to what the last clause before it named, or the line is dropped', async () => {
  const input = dialogue([
    ['Dina', false, "Third, your certification. We'll cover the fee, send me the receipt."],
    ['Sam', true, "I'll forward it to you after this."],
  ]);
  // The request after the comma is the task; the wearer's "forward it" refers back to it, and dates it:
  // "after this" is today.
  assert.deepEqual(await items(input), [['Send Dina the receipt', '2026-03-04T23:59']]);
  const purpose = dialogue([
    ['Nurse', false, 'Dr. Haddad wants a blood test in about six weeks.'],
    ['Sam', true, "I'll call the clinic to book it."],
  ]);
  assert.deepEqual(await items(purpose), [['Call the clinic to book blood test', '2026-04-15T23:59']]);
  // The course of "of course" is nothing to act on.
  assert.deepEqual(await items(memo("Of course, I'll forward it tonight.")), []);
  // "it" is never a person: with only the doctor named, the line goes.
  const signed = dialogue([
    ['Nurse', false, 'We need an updated one signed by his doctor.'],
    ['Sam', true, "Okay, I'll get it."],
  ]);
  assert.ok(
    !(await items(signed)).some(([description]) => /doctor/i.test(description ?? '')),
    "!(await items(signed)).some(([description]) => /doctor/i.test(description ?? ''))",
  );
  // A thank-you is no thing to send: with nothing else named, "it" stays unresolved and the line goes.
  assert.deepEqual(await items(memo("Thanks. I'll send it to them this afternoon.")), []);
});

test('a pronoun in a coordinated clause means the first clause object and stays', async () => {
  const text = "I'll make flashcards for chapter five and share them with the study group.";
  assert.deepEqual(await items(memo(text)), [
    ['Make flashcards for chapter five and share them with the study group', null],
  ]);
});

test('hesitations do not cut a clause, and a task beyond the task verbs needs an object', async () => {
  const input = dialogue([
    ['Rogério', false, 'Oh, and bring the, uh, the spare key if you can.'],
    ['Sam', true, "Sure. I'll leave early on Friday."],
  ]);
  assert.deepEqual(await items(input), [['Bring the spare key', null]]);
});

test('spoken clock times: "at four" said after noon is today, "four thirty" keeps its minutes', async () => {
  const afternoon = memo('Remind me to call the bank at four.', { startedAt: '2026-03-04T13:05:00-05:00' });
  assert.deepEqual(await items(afternoon), [['Call the bank', '2026-03-04T16:00']]);
  assert.deepEqual(await items(memo('I need to pick up Leo at four thirty tomorrow.')), [
    ['Pick up Leo', '2026-03-05T16:30'],
  ]);
});

test('a request put as a question becomes a task when the wearer takes it on, not when they decline', async () => {
  const accepted = dialogue([
    ['Physio', false, 'And could you keep a pain diary?'],
    ['Sam', true, 'Sure, I can do that.'],
  ]);
  assert.deepEqual(await items(accepted), [['Keep a pain diary', null]]);
  const declined = dialogue([
    ['Physio', false, 'And could you keep a pain diary?'],
    ['Sam', true, "Sorry, no, I really can't this month."],
  ]);
  assert.deepEqual(await items(declined), []);
  const possessive = dialogue([
    ['Dana', false, 'Can you run her onboarding?'],
    ['Sam', true, 'Yes.'],
  ]);
  assert.deepEqual(await items(possessive), [['Run her onboarding', null]]);
  // What someone wants by a date is the wearer's to send; a want without one asks for nothing.
  const chapter = dialogue([
    ['Supervisor', false, 'Chapter three. I want the revised chapter by March 20th.'],
    ['Sam', true, "Okay, I'll get it done."],
  ]);
  assert.deepEqual(await items(chapter), [['Send the revised chapter', '2026-03-20T23:59']]);
  const board = dialogue([
    ['Dana', false, 'The board wants the Q2 forecast by Friday.'],
    ['Sam', true, 'Okay.'],
  ]);
  assert.deepEqual(await items(board), [['Send the Q2 forecast', '2026-03-06T23:59']]);
  const salmon = dialogue([
    ['Dana', false, 'I want the salmon.'],
    ['Sam', true, 'Sure.'],
  ]);
  assert.deepEqual(await items(salmon), []);
  // A particle between the verb and its object; what the wearer will need first is no task.
  const costPlan = dialogue([
    ['Dana', false, 'Sam, could you also put together the cost plan for the school extension by the end of next week?'],
    ['Sam', true, "Yes, but I'll need the architect's drawings first."],
  ]);
  assert.deepEqual(await items(costPlan), [
    ['Put together the cost plan for the school extension', '2026-03-13T23:59'],
  ]);
  // Food made after being asked to bring something is due when the occasion is.
  const dal = dialogue([
    ['Maya', false, "Are you coming to my housewarming? It's Saturday the 7th from seven."],
    ['Sam', true, "Wouldn't miss it. Shall I bring anything?"],
    ['Maya', false, 'Could you make that lentil dal of yours?'],
    ['Sam', true, 'Of course.'],
  ]);
  assert.deepEqual(await items(dal), [['Make that lentil dal of mine', '2026-03-07T19:00']]);
  // "at least" between the question and its verb.
  const table = dialogue([
    ['Dana', false, 'Sam, can you at least book the table?'],
    ['Sam', true, 'Fine.'],
  ]);
  assert.deepEqual(await items(table), [['Book the table', null]]);
  // An aside set off by dashes keeps its day; the reply that takes the task on borrows none over the one said.
  const consent = dialogue([
    [
      'Teacher',
      false,
      "I need you to sign the consent form — I'll put it in her book bag tomorrow — and return it by next Friday, the thirteenth.",
    ],
    ['Sam', true, "Okay. I'll sign it and send it back."],
  ]);
  assert.deepEqual(await items(consent), [['Sign the consent form', '2026-03-13T23:59']]);
  // A follow-up that opens on a new topic means that topic, not the task before it.
  const late = dialogue([
    ['Efua', false, 'The embassy booked us for Friday, nine-thirty.'],
    [
      'Sam',
      true,
      "Okay. Friday, nine-thirty. I'll tell Mr. Asante I'm coming in late. And the letter from HR — I'll email them first thing tomorrow.",
    ],
  ]);
  const [asante] = await items(late);
  assert.deepEqual(asante, ["Tell Mr. Asante I'm coming in late", '2026-03-06T23:59']);
  // Asked for by its result: the deliverable is finished, by the date the question gives.
  const handover = dialogue([
    ['Claudia', false, 'Can you have the handover document done by the end of the month?'],
    ['Sam', true, "Yes, end of March, no problem. I'll walk Jana through it too."],
  ]);
  const [first, ...rest] = await items(handover);
  assert.deepEqual(first, ['Finish the handover document', '2026-03-31T23:59']);
  // "the end of March" is when, never what "it" means.
  assert.ok(
    rest.every(([description]) => !/\bend\b/.test(description)),
    JSON.stringify(rest),
  );
});

test('an instruction after a fronted stretch is addressed to the wearer; an ordinal that counts is no date', async () => {
  const shoes = dialogue([
    ['Physio', false, 'Next week same time, Tuesday, and bring your running shoes.'],
    ['Sam', true, 'Will do.'],
  ]);
  const [[task, when]] = await items(shoes);
  assert.equal(task, 'Bring my running shoes');
  assert.match(when ?? '', /^2026-03-1[0-1]/, 'next week');
  const bars = dialogue([
    ['Teacher', false, 'And for next week, learn the intro to Blackbird, just the first eight bars.'],
    ['Sam', true, 'Okay.'],
  ]);
  const [[description, due]] = await items(bars);
  assert.match(description, /^Learn the intro to Blackbird/);
  assert.notEqual(due?.slice(8, 10), '01', 'the first eight bars is not the first of the month');
});

test('a deliverable said to be due is a task to hand it in, or to pay it; a baby due is not', async () => {
  const lecture = dialogue([
    ['Lecturer', false, 'The second problem set is due this Friday, on the portal.'],
    ['Sam', true, 'Okay.'],
  ]);
  assert.deepEqual(await items(lecture), [['Submit the second problem set', '2026-03-06T23:59']]);
  assert.deepEqual(await items(memo('The rent is due on the first of April.')), [['Pay the rent', '2026-04-01T23:59']]);
  assert.deepEqual(await items(memo('The baby is due in March.')), []);
});

test('an instruction carried out on the spot is no task; a phrasal verb with its object is', async () => {
  const chair = dialogue([
    ['Dentist', false, 'Come on in, grab a seat. OK, open wide.'],
    ['Sam', true, 'Sure.'],
  ]);
  assert.deepEqual(await items(chair), []);
  const keys = dialogue([
    ['Dana', false, 'Pick up the keys from reception.'],
    ['Sam', true, 'Will do.'],
  ]);
  assert.deepEqual(await items(keys), [['Pick up the keys from reception', null]]);
});

test('a task cut after a preposition ends before it; "and, how about …" opens a new clause', async () => {
  const input = memo(
    "I'll send the project plan and book the room on our side, and, how about we do a weekly check-in, Thursdays?",
  );
  assert.deepEqual(
    (await items(input)).map(([description]) => description),
    ['Send the project plan', 'Book the room on our side'],
  );
  const cut = memo("I'll send the final list, with table numbers roughly, of");
  assert.deepEqual(
    (await items(cut)).map(([description]) => description),
    ['Send the final list, with table numbers roughly'],
  );
});

test('a short afterthought of the same turn dates the task', async () => {
  const input = dialogue([
    ['Landlord', false, 'Can you send me photos of the display, with the error code? Today if possible.'],
    ['Sam', true, 'Sure, I will.'],
  ]);
  const [[description, due]] = await items(input);
  assert.match(description, /^Send .*photos of the display/);
  assert.equal(due?.slice(0, 10), '2026-03-04');
});

test('the wearer taking on a request with "it" dates that task instead of adding a second one', async () => {
  const input = dialogue([
    ['Amina', false, 'Wanjiru, as treasurer, can you send the M-Pesa statement to everyone?'],
    ['Sam', true, "Yes, I'll send it on the WhatsApp group by Sunday."],
  ]);
  const found = await items(input);
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.match(found[0][0], /statement/);
  assert.equal(found[0][1], '2026-03-08T23:59');
});

test('a memo heading, a task verb wink misreads, "it" on the same verb, and "a polite but firm" email', async () => {
  assert.deepEqual(await items(memo('To do: send thank-you emails to Mr. Park tomorrow morning.')), [
    ['Send thank-you emails to Mr. Park', '2026-03-05T09:00'],
  ]);
  const fabric = memo('I need to buy the fabric for the dress, Ngozi sent the colour. Buy it by Friday too.');
  assert.deepEqual(await items(fabric), [['Buy the fabric for the dress', '2026-03-06T23:59']]);
  const firm = await items(memo('Send him a polite but firm email tomorrow morning.'));
  assert.equal(firm.length, 1);
  assert.match(firm[0][0], /polite but firm email/);
  const invoice = await items(memo("Invoice Kemi's agency for the March work by Friday."));
  assert.deepEqual(invoice, [["Invoice Kemi's agency for the March work", '2026-03-06T23:59']]);
});

test('a clinician starting the wearer on a medicine asks them to take it', async () => {
  const input = dialogue([
    ['Dr Osei', false, 'The monitor shows atrial fibrillation.'],
    ['Dr Osei', false, "So I'm starting you on apixaban, a blood thinner, five milligrams twice a day."],
    ['Erik', true, 'Okay, I will.'],
  ]);
  const found = await items(input);
  assert.ok(
    found.some(([description]) => /^Take apixaban/.test(description)),
    found.map(([d]) => d).join(' | '),
  );
});

test('a memo pasted with hard line breaks reads as one text, and a follow-up in the same turn dates its request', async () => {
  const wrapped = memo(
    "Okay, so the party is Saturday the fourteenth at the church hall, and I'm in charge of the cake. So I need to order the cake\nfrom Bimpe's bakery by Friday, because she needs a week.",
  );
  assert.deepEqual(await items(wrapped), [["Order the cake from Bimpe's bakery", '2026-03-06T23:59']]);
  const review = dialogue([
    ['Dana', false, 'Calibration is at the end of the month. But I need your self-review.'],
    ['Dana', false, 'Can you get that to me by Friday?'],
    ['Sam', true, 'Sure.'],
  ]);
  const found = await items(review);
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.equal(found[0][1], '2026-03-06T23:59');
});

test('no task from telling someone something there and then, a need for help, or a note that states a fact', async () => {
  const told = dialogue([
    ['Kak Ros', false, 'So, the menu, any questions?'],
    ['Nurul', true, "I have to tell you first, I'm allergic to prawns."],
  ]);
  assert.deepEqual(await items(told), []);
  const help = dialogue([
    ['Efua', false, 'The reunion is in June. But I need your help.'],
    ['Abena', true, 'Of course.'],
  ]);
  assert.deepEqual(await items(help), []);
  assert.deepEqual(await items(memo("And, um, note to self, it's officially one month with no sugar.")), []);
});

test('a dose keeps its frequency ("twice a day" is no date)', async () => {
  const input = dialogue([
    ['Dr Osei', false, "I'm starting you on apixaban, five milligrams twice a day."],
    ['Erik', true, 'Will do.'],
  ]);
  const found = await items(input);
  assert.ok(
    found.some(([description]) => description === 'Take apixaban, five milligrams twice a day'),
    JSON.stringify(found),
  );
});

test('a memo without subjects: "Need to …", a named thing picked up, and a monthly price that dates nothing', async () => {
  const note = memo(
    [
      'So the garage called, the Civic needs new brake pads, I said yes, pick it up Thursday after five.',
      'Need to call the insurance about the windscreen claim.',
      "Cancel the gym membership, it's forty quid a month for nothing.",
    ].join(' '),
  );
  const found = await items(note);
  const descriptions = found.map(([description]) => description);
  // "Thursday after five" is one moment: Thursday at 17:00.
  assert.deepEqual(
    found.find(([description]) => description.startsWith('Pick up the Civic')),
    ['Pick up the Civic', '2026-03-05T17:00'],
  );
  assert.ok(descriptions.includes('Call the insurance about the windscreen claim'), descriptions.join(' | '));
  assert.deepEqual(
    found.find(([description]) => description.startsWith('Cancel the gym membership')),
    ['Cancel the gym membership', null],
  );
});

test('a deliverable promised with its result, a task started on, a second task after "go to", a talk planned', async () => {
  const cases: Array<[string, Array<[string, string | null]>]> = [
    ["I'll have the postmortem done by Wednesday.", [['Finish the postmortem', '2026-03-04T23:59']]],
    ["I'll have the hotfix deployed by Thursday.", [['Deploy the hotfix', '2026-03-05T23:59']]],
    ["I'll have a first draft of the poster by Friday.", [['Finish a first draft of the poster', '2026-03-06T23:59']]],
    ["I'll have the salmon.", []],
    ["I'll start preparing the licensing documents.", [['Prepare the licensing documents', null]]],
    ['I have to go to Álafoss and buy more yarn by Saturday.', [['Buy more yarn', '2026-03-07T23:59']]],
    ["I'm talking to Derek about the workload on Monday.", [['Talk to Derek about the workload', '2026-03-09T23:59']]],
    ["I'm walking to work tomorrow.", []],
  ];
  for (const [text, expected] of cases) assert.deepEqual(await items(memo(text)), expected, text);
});

test('what the wearer brings to an appointment is due when the appointment is', async () => {
  const input = dialogue([
    ['Shop', false, 'Your bike will be ready on Friday at ten, you can pick it up then.'],
    ['Sam', true, "Great, and I'll bring my residence card for the warranty."],
    ['Shop', false, 'Perfect, see you then.'],
  ]);
  assert.deepEqual(await items(input), [['Bring my residence card for the warranty', '2026-03-06T10:00']]);
  // Without a dated plan in the conversation there is nothing to tie it to.
  const undated = dialogue([
    ['Shop', false, 'The warranty needs some proof of residence.'],
    ['Sam', true, "Okay, I'll bring my residence card."],
  ]);
  assert.deepEqual(await items(undated), [['Bring my residence card', null]]);
});

test('a list of one’s own tasks: each keeps its own date, a prohibition and a remark end the task', async () => {
  const found = await items(
    memo(
      [
        'Note to self, renew the car insurance before the 20th.',
        'And book flights to Accra for Christmas, prices are going up.',
        "Also I really should call Grandma, it's been three weeks.",
        "Please bring the vaccination booklet, and don't feed the cat after midday.",
        'Remind people the retreat is October twelfth.',
      ].join(' '),
    ),
  );
  const byText = Object.fromEntries(found);
  assert.equal(byText['Renew the car insurance'], '2026-03-20T23:59', JSON.stringify(found));
  assert.equal(byText['Book flights to Accra for Christmas'], null, JSON.stringify(found));
  assert.equal(byText['Call Grandma'], null, JSON.stringify(found));
  assert.ok('Bring the vaccination booklet' in byText, JSON.stringify(found));
  assert.ok('Remind people the retreat' in byText, JSON.stringify(found));
});

test('a prescription is a task without a yes; a person due any day and a review that "is Wednesday" are none', async () => {
  const visit = dialogue([
    ['Dr Mensah', false, "I'm going to start you on ferrous sulfate, one tablet a day with orange juice."],
    ['Sam', true, 'I drink so much tea though.'],
  ]);
  const [first] = await items(visit);
  assert.match(first?.[0] ?? '', /^Take ferrous sulfate/);
  const sync = dialogue([
    ['Aiko', false, 'The landing page copy is done, design review is Wednesday.'],
    ['Jonas', false, "I'm off next week, my wife is due any day."],
    ['Sam', true, 'Congrats! We will manage.'],
  ]);
  assert.deepEqual(await items(sync), []);
});

test('"It\'s due Monday at noon" dates the task just given, unless it has a day of its own', async () => {
  const lecture = dialogue([
    [
      'Prof. Adeyemi',
      false,
      'For next week, read chapter five and do problem set three. It’s due Monday at noon on the portal.',
    ],
    ['Sam', true, 'Okay.'],
  ]);
  assert.deepEqual(await items(lecture), [['Read chapter five and do problem set three', '2026-03-09T12:00']]);
  const memoed = await items(
    memo("Email Dr. Okafor tonight to ask for an extension on the essay. It's due on the twenty-second."),
  );
  assert.equal(memoed[0]?.[1]?.slice(0, 10), '2026-03-04', JSON.stringify(memoed));
});

test('"on the day" refers to a day said elsewhere: it is no date of its own and leaves the line', async () => {
  assert.deepEqual(await items(memo("I'll send a photo of the meter on the day.")), [
    ['Send a photo of the meter', null],
  ]);
});

test('a habit borrows no date, and a meal packed is a task, not an event', async () => {
  const coach = dialogue([
    ['Coach', false, 'For the next month, three sessions a week: Monday, Wednesday and Friday mornings.'],
    ['Coach', false, 'And I want you to log your protein every day.'],
    ['Sam', true, 'Got it.'],
  ]);
  const logged = (await items(coach)).find(([description]) => description.startsWith('Log'));
  assert.deepEqual(logged, ['Log my protein', null]);
  const bedtime = memo('I need to sign the permission slip tonight, and pack your lunch.');
  const { events } = await engine.structure(bedtime);
  assert.deepEqual(
    events.map((event) => event.title),
    [],
  );
});

test('a date cut from the end takes its preposition with it, and "it takes ten minutes" dates nothing', async () => {
  assert.deepEqual(await items(memo("I'll send the accountant my bank statements by the end of November.")), [
    ['Send the accountant my bank statements', '2026-11-30T23:59'],
  ]);
  assert.deepEqual(await items(memo("I'll send a photo of the meter, it takes ten minutes.")), [
    ['Send a photo of the meter', null],
  ]);
});

test('what befalls one or what one feels is no task: "Forget, my brain is soup", "Lose my mind"', async () => {
  const note = memo(
    "Renew the certificate on the council website. Forget, my brain is soup. I'm going to lose my mind if the printer breaks again.",
  );
  assert.deepEqual(
    (await items(note)).map(([description]) => description),
    ['Renew the certificate on the council website'],
  );
});

test('"it" means a thing, not an amount, a deadline or a judgement said of it', async () => {
  const input = dialogue([
    ['Ngozi', false, 'The screening fee is eight thousand naira, by the way.'],
    ['SPEAKER_00', true, 'That one is my fault.'],
    ['SPEAKER_00', true, "I'll transfer it this evening."],
  ]);
  const found = await items(input);
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.match(found[0][0], /^Transfer the (?:screening )?fee/, JSON.stringify(found));
});

test('"I\'d like you to" and "I\'ll need you to" ask, with or without an adverb', async () => {
  for (const [line, expected] of [
    ["I'd like you to book the scan for next week.", 'Book the scan'],
    ["I'll need you to sign the lease by Friday.", 'Sign the lease'],
    ["I'd also like you to keep a headache diary until the follow-up on the 20th.", 'Keep a headache diary'],
  ]) {
    const found = await items(
      dialogue([
        ['Dr Ines', false, line],
        ['SPEAKER_00', true, 'Okay.'],
      ]),
    );
    assert.match(found[0]?.[0] ?? '', new RegExp(`^${expected}`), JSON.stringify(found));
  }
});

test('an adverb between the asker and "want you to" or "need to" still asks; "forty-eight hours" is how long', async () => {
  const input = dialogue([
    ['Dr Ines', false, 'I also want you to wear a Holter monitor, for forty-eight hours.'],
    ['Dr Ines', false, 'You also need to bring the signed consent form on Friday.'],
    ['SPEAKER_00', true, 'Okay.'],
  ]);
  assert.deepEqual(await items(input), [
    ['Wear a Holter monitor, for forty-eight hours', null],
    ['Bring the signed consent form', '2026-03-06T23:59'],
  ]);
});

test('a referral asks the wearer to go, and what an interviewer would like to see asks the wearer to send it', async () => {
  const clinic = dialogue([
    ['Dr Ines', false, "I'm also referring you to a nutritionist, Dr. Hala Mansour."],
    ['SPEAKER_00', true, 'Okay, sounds good.'],
  ]);
  assert.deepEqual(await items(clinic), [['See a nutritionist, Dr. Hala Mansour', null]]);
  const interview = dialogue([
    ['Priya', false, "We'd like to see one full case study and two references."],
    ['SPEAKER_00', true, 'Sure, no problem.'],
  ]);
  assert.deepEqual(await items(interview), [['Send one full case study and two references', null]]);
});

test('a deliverable that must be submitted or done by a date is a task to do it', async () => {
  const input = dialogue([
    ['Prof Adeyemi', false, 'And the final copy must be submitted to the faculty by the 20th.'],
    ['Prof Adeyemi', false, 'The kitchen needs to be cleaned.'],
    ['SPEAKER_00', true, 'Understood.'],
  ]);
  assert.deepEqual(await items(input), [['Submit the final copy', '2026-03-20T23:59']]);
});

test('a deadline said on its own after a task ("By the end of next month, no rush.") dates it', async () => {
  const input = dialogue([
    ['Rania', false, 'Draft a growth plan, what a move would look like in twelve months.'],
    ['Rania', false, 'By the end of next month, no rush, and we go through it together.'],
    ['SPEAKER_00', true, 'Sounds good.'],
  ]);
  const found = await items(input);
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.equal(found[0][1], '2026-04-30T23:59', JSON.stringify(found));
});

test('polite and softened requests ask too: "If you could …", "You\'ll want to …", "It would be good to …", "Just …"', async () => {
  for (const [line, expected] of [
    ["If you could fill in the form by Monday, that'd be great.", 'Fill in the form'],
    ["You'll want to book the MOT before the 20th.", 'Book the MOT'],
    ['It would be good to get the bloods done next week.', 'Get the bloods done'],
    ['Go ahead and order the parts tomorrow.', 'Order the parts'],
  ]) {
    const found = await items(
      dialogue([
        ['Dr Ines', false, line],
        ['SPEAKER_00', true, 'Okay, sounds good.'],
      ]),
    );
    assert.equal(found[0]?.[0], expected, JSON.stringify(found));
  }
  const condition = dialogue([
    ['Dr Ines', false, "If you can't make it, let me know."],
    ['SPEAKER_00', true, 'Okay.'],
  ]);
  assert.deepEqual(await items(condition), []);
});

test('a recommendation, a message passed on, a prescription and an office’s need each ask the wearer', async () => {
  for (const [line, expected] of [
    ["And I'd recommend changing your online banking password today.", 'Change my online banking password'],
    ["I'm prescribing an adrenaline auto-injector, an EpiPen.", 'Take an adrenaline auto-injector, an EpiPen'],
    ["I'm prescribing ferrous sulfate, one tablet a day.", 'Take ferrous sulfate, one tablet a day'],
    ['The office needs the registration form by the 15th.', 'Send the registration form'],
  ]) {
    const found = await items(
      dialogue([
        ['Dr Ines', false, line],
        ['SPEAKER_00', true, 'Okay, sounds good.'],
      ]),
    );
    assert.equal(found[0]?.[0], expected, JSON.stringify(found));
  }
  const passedOn = dialogue([
    ['Maya', false, "Rachel's in London today, she said to grab a slot in her calendar this week."],
    ['SPEAKER_00', true, 'Will do.'],
  ]);
  assert.match((await items(passedOn))[0]?.[0] ?? '', /^Grab a slot/);
  const wish = dialogue([
    ['Maya', false, 'They want the best for you.'],
    ['SPEAKER_00', true, 'I know.'],
  ]);
  assert.deepEqual(await items(wish), []);
});

test('"three months of bank statements" is an amount to send, not a date', async () => {
  const input = dialogue([
    ['Daniel', false, 'I need three months of bank statements for your everyday account.'],
    ['SPEAKER_00', true, 'I can download all that tonight.'],
  ]);
  const [item] = await items(input);
  assert.equal(item?.[0], 'Send three months of bank statements for my everyday account', JSON.stringify(item));
});

test('money someone needs from the wearer is paid, not sent', async () => {
  const input = dialogue([
    ['Linh', false, 'To hold the booking we need a deposit of five hundred dollars by the 12th.'],
    ['SPEAKER_00', true, 'Okay, no problem.'],
  ]);
  assert.deepEqual(await items(input), [['Pay a deposit of five hundred dollars', '2026-03-12T23:59']]);
});

test('a medicine prescribed is taken from today, and "Today if possible" after a request dates it', async () => {
  const clinic = dialogue([
    ['Dr Ines', false, "So I'd like to start you on lisinopril, ten milligrams, once a day."],
    ['SPEAKER_00', true, 'Okay.'],
  ]);
  const [take] = await items(clinic);
  assert.deepEqual(take, ['Take lisinopril, ten milligrams, once a day', '2026-03-04T23:59']);
  const landlord = dialogue([
    ['Kessler', false, 'Can you send me photos of the boiler display, with the error code?'],
    ['Kessler', false, 'Today if possible, so I can send them to the engineer.'],
    ['SPEAKER_00', true, 'Sure.'],
  ]);
  const [photos] = await items(landlord);
  assert.equal(photos?.[1], '2026-03-04T23:59', JSON.stringify(photos));
});

test('the exchange that settles when dates the task: an answer to "when", or a reply that is only a day', async () => {
  const asked = dialogue([
    ['Quang', false, 'And send me your sales numbers from Shopee, the last twelve months.'],
    ['SPEAKER_00', true, 'When do you need them?'],
    ['Quang', false, 'By Friday next week, the thirteenth?'],
  ]);
  const [sales] = await items(asked);
  assert.match(sales?.[0] ?? '', /sales numbers/);
  assert.equal(sales?.[1], '2026-03-13T23:59', JSON.stringify(sales));
  const replied = dialogue([
    ['SPEAKER_00', true, 'But first I need to talk to the social worker about the co-funding.'],
    ['Ola', false, 'When can you call her?'],
    ['SPEAKER_00', true, 'Tomorrow morning.'],
  ]);
  const [call] = await items(replied);
  assert.match(call?.[0] ?? '', /social worker/);
  assert.equal(call?.[1], '2026-03-05T09:00', JSON.stringify(call));
  // A date in a longer sentence of someone else's turn is about something else.
  const unrelated = dialogue([
    ['SPEAKER_00', true, 'I need to talk to the social worker about the co-funding.'],
    ['Ola', false, 'My sister is flying in from Warsaw on Friday with the kids.'],
  ]);
  const [plain] = await items(unrelated);
  assert.equal(plain?.[1], null, JSON.stringify(plain));
});

test('"this week" said at the weekend is the coming working week', async () => {
  const saturday = memo("I'll buy the fishing reel this week.", {
    startedAt: '2026-06-13T10:00:00+03:00',
    timezone: 'Europe/Bucharest',
  });
  assert.deepEqual(await items(saturday), [['Buy the fishing reel', '2026-06-19T23:59']]);
});

test('a text typed or transcribed without apostrophes reads its contractions ("Ill get", "im", "dont")', async () => {
  assert.deepEqual(await items(memo('Ill get the Q4 numbers to Dana by Friday. Im out Monday so dont wait.')), [
    ['Get the Q4 numbers to Dana', '2026-03-06T23:59'],
  ]);
  // "ill" as a word stays: nothing to do here.
  assert.deepEqual(await items(memo('I felt ill all weekend and the ill feeling is gone now.')), []);
});

test('an item’s number opens a memo’s list like a heading ("Step one: email Denise")', async () => {
  assert.deepEqual(
    await items(memo('Step one: email Denise in HR about the reimbursement form. Number two: call the bank tomorrow.')),
    [
      ['Email Denise in HR about the reimbursement form', null],
      ['Call the bank', '2026-03-05T23:59'],
    ],
  );
  // A deadline said on its own after the item dates it, even with a reason after a comma.
  const [[, due]] = await items(
    memo('Step one: email Denise in HR about the reimbursement form. By the end of the month, before the holidays.'),
  );
  assert.equal(due, '2026-03-31T23:59');
});

test('"I\'ll do it" after a request takes the verb of the request, not "do"', async () => {
  const cases: Array<[string, string, string]> = [
    ['Georgia, can you at least book the table for the week after?', "Fine, I'll do it.", 'Book the table'],
    ['We need someone to call the caterer.', "I'll do that tomorrow.", 'Call the caterer'],
  ];
  for (const [asked, reply, expected] of cases) {
    const found = await items(
      dialogue([
        ['Priya', false, asked],
        ['Georgia', true, reply],
      ]),
    );
    assert.deepEqual(
      found.map(([text]) => text),
      [expected],
      reply,
    );
  }
});

test('a short word of assent before the day in the reply still dates the request', async () => {
  const cases: Array<[string, string, string, string]> = [
    [
      'Arjun, can you update the runbook for the retry flow?',
      'Sure, after the merge. Probably tomorrow morning.',
      'Update the runbook for the retry flow',
      '2026-03-05',
    ],
    ['Can you send me the slides for the board?', 'Sure. Friday at the latest.', 'the slides', '2026-03-06'],
  ];
  for (const [asked, reply, task, day] of cases) {
    const found = await items(
      dialogue([
        ['Lena', false, asked],
        ['Arjun', true, reply],
      ]),
    );
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.ok(found[0][0].includes(task), JSON.stringify(found));
    assert.equal(found[0][1]?.slice(0, 10), day, JSON.stringify(found));
  }
});

test('the time the asker gives for a request, in the same turn or after the wearer replies, is its due date', async () => {
  const sameTurn = await items(
    dialogue([
      [
        'Agent',
        false,
        'Can you send me a repair quote from a contractor? You have fourteen days from today to send it.',
      ],
      ['Sam', true, 'Okay, fourteen days.'],
    ]),
  );
  assert.deepEqual(
    sameTurn.map(([text, due]) => [text.includes('repair quote'), due?.slice(0, 10)]),
    [[true, '2026-03-18']],
  );
  const nextTurn = await items(
    dialogue([
      ['Adviser', false, 'I need your last three payslips to do the full plan.'],
      ['Sam', true, 'I can get those from the payroll site.'],
      ['Adviser', false, "If you send them by next Friday, I'll have the plan ready."],
    ]),
  );
  assert.deepEqual(
    nextTurn.map(([text, due]) => [text.includes('payslips'), due?.slice(0, 10)]),
    [[true, '2026-03-13']],
  );
});

test('a capitalised plural opening a sentence is a common noun when WordNet has its singular, not a name', async () => {
  assert.deepEqual(
    (await items(memo("Invitations, I'll print them this weekend."))).map(([text]) => text),
    ['Print invitations'],
  );
  const tags = parseTokens('Errands. James is here.').map((token) => `${token.value}/${token.pos}`);
  assert.deepEqual(
    tags.filter((tag) => /^(?:Errands|James)\//.test(tag)),
    ['Errands/NOUN', 'James/PROPN'],
  );
});

test('a noun wink tags between a modal and its object is a verb: "it" in the reply is what was texted', async () => {
  const tags = parseTokens("I'll text you the flight number.").map((token) => `${token.value}/${token.pos}`);
  assert.ok(tags.includes('text/VERB'), tags.join(' '));
  const found = await items(
    dialogue([
      ['Mum', false, "She's coming in on United. I'll text you the flight number."],
      ['Sam', true, "Okay, send it to me and I'll track it."],
    ]),
  );
  assert.ok(!found.some(([text]) => /track text/i.test(text)), JSON.stringify(found));
});

test('a span a negated perfect looks back over is no due date', async () => {
  const found = await items(memo("I'll do the mushroom risotto since I haven't touched meat in about ten years."));
  assert.ok(
    found.every(([, due]) => due === null),
    JSON.stringify(found),
  );
});

test('a count, a share, a day or a manner where the thing acted on should be is no task; a pronoun the reply resolves still dates', async () => {
  for (const said of [
    "I'll book four anyway, someone will come.",
    "I'll call Christmas, it's easier.",
    "Okay, I'll ask first.",
    "I'll pay half.",
  ]) {
    assert.deepEqual(await items(memo(said)), [], said);
  }
  // "I'll grab one on Saturday": "one" is the band asked for, which the reply dates.
  const found = await items(
    dialogue([
      ['Physio', false, 'Get a heavy loop band, the black or the blue one.'],
      ['Sam', true, "Okay, I'll grab one on Saturday."],
    ]),
  );
  assert.deepEqual(
    found.map(([description]) => description),
    ['Get a heavy loop band'],
  );
  assert.ok(found[0]?.[1] !== null, JSON.stringify(found));
});

test('"it" means the thing named, not what is said of it, nor an adjective after the noun', async () => {
  const cases: Array<[string, string]> = [
    [
      "The water butt by the shed is cracked, that's a committee thing, I'll raise it at the AGM.",
      'Raise the water butt at the AGM',
    ],
    [
      "I need the food handler certificate first, that's an online course, I'll do it this weekend.",
      'Do the food handler certificate',
    ],
  ];
  for (const [said, expected] of cases) {
    const found = await items(memo(said));
    assert.deepEqual(
      found.map(([description]) => description),
      [expected],
      said,
    );
  }
  // "This is the claim form": shown, not described; it is what "it" means.
  const shown = await items(
    dialogue([
      ['Nurse', false, 'This is the claim form, it needs to be submitted with the audiogram.'],
      ['Sam', true, "I'll submit it online by Friday."],
    ]),
  );
  assert.equal(shown[0]?.[0], 'Submit the claim form online');
});

test('what the wearer is told to do and accepts is kept, though its verb is a light one', async () => {
  for (const [told, expected] of [
    ['I want you to keep a headache diary.', 'Keep a headache diary'],
    ['I want you to use artificial tears.', 'Use artificial tears'],
  ]) {
    const found = await items(
      dialogue([
        ['Doctor', false, told],
        ['Sam', true, 'Sure.'],
      ]),
    );
    assert.deepEqual(
      found.map(([description]) => description),
      [expected],
      told,
    );
  }
});

test('"her" with nobody named means the person the wearer’s role noun names; a name said nearer still wins', async () => {
  const found = await items(memo("I'm seeing my doctor on Tuesday anyway, I'll ask her for the note then."));
  assert.deepEqual(
    found.map(([description]) => description),
    ['Ask my doctor for the note'],
  );
  const named = await items(
    memo("My landlord is useless. Dana is the agent. I'll call her tomorrow about the boiler."),
  );
  assert.deepEqual(
    named.map(([description]) => description),
    ['Call Dana about the boiler'],
  );
});

test('"the Friday before" counts from another day, so the reply that names the day dates the request', async () => {
  const found = await items(
    dialogue(
      [
        ['Jae-min', false, 'Could you pick up the gloves from the office on the Friday before?'],
        ['Sam', true, 'Friday the seventh. Okay, I can drive there after school.'],
      ],
      { startedAt: '2026-07-11T09:10:00+09:00', timezone: 'Asia/Seoul' },
    ),
  );
  assert.equal(found[0]?.[1], '2026-08-07T23:59', JSON.stringify(found));
});

test('"You\'ll have the statements by Friday" promises a delivery; a hedge at the end of a line goes', async () => {
  const found = await items(
    dialogue([
      ['Broker', false, 'I need three months of bank statements.'],
      ['Sam', true, "You'll have the bank statements and all that by Friday, for sure."],
    ]),
  );
  assert.ok(
    found.some(([description, due]) => description === 'Send the bank statements' && due === '2026-03-06T23:59'),
    JSON.stringify(found),
  );
  assert.deepEqual(await items(memo("You'll have a great time on Friday.")), []);
  assert.deepEqual(await items(memo("I'll send the photos tomorrow, promise.")), [
    ['Send the photos', '2026-03-05T23:59'],
  ]);
});

test('a phrasal particle at the end stays ("let the technician in"); a "lol" and a "by then" go', async () => {
  const found = await items(
    dialogue([
      ['Greg', false, 'Could you make sure someone is home to let the technician in on Friday?'],
      ['Sam', true, 'Yes, will do.'],
    ]),
  );
  assert.equal(found[0]?.[0], 'Make sure someone is home to let the technician in');
  const book = await items(
    dialogue([
      ['Lena', false, 'Can you also finish the book by then lol'],
      ['Sam', true, "Haha, I'll finish it by Friday."],
    ]),
  );
  assert.equal(book[0]?.[0], 'Finish the book');
});

test('the wearer’s answer that takes on a request in their own words is the same task, dated by the answer', async () => {
  const input = dialogue([
    ['SPEAKER_01', false, 'Can you measure the stairwell at the turn, the narrowest point, and the door?'],
    ['SPEAKER_00', true, "Okay, I'll measure the stairwell tonight and email you."],
  ]);
  assert.deepEqual(await items(input), [['Measure the stairwell and email them', '2026-03-04T18:00']]);
});

test('a pronoun the rewrite gave the listener ("email you" → "email them") points at no thing said before', async () => {
  const input = dialogue([
    ['SPEAKER_01', false, 'If it is under ninety-five, we do the model with the detachable arms.'],
    ['SPEAKER_00', true, "Okay, I'll measure the stairwell tonight and email you."],
  ]);
  assert.deepEqual(await items(input), [['Measure the stairwell and email them', '2026-03-04T18:00']]);
});

test('a subjectless "Gotta …" opening a line is the wearer’s plan, never a person the task is for', async () => {
  const found = await items(memo('Jo keeps asking about the trip. Gotta explain the budget to her properly.'));
  assert.deepEqual(found, [['Explain the budget to Jo', null]]);
});

test('a group addressed is "them", a closing "don’t worry" goes, and things not yet named are no task', async () => {
  const link = await items(
    dialogue([
      ['SPEAKER_01', false, 'The cabin with the fireplace, yes. Who is booking?'],
      ['SPEAKER_00', true, "I'll send you guys the link tonight, don't worry."],
    ]),
  );
  assert.deepEqual(link, [['Send them the link', '2026-03-04T18:00']]);
  const things = await items(
    dialogue([
      ['SPEAKER_01', false, 'Good. I need two things from you.'],
      ['SPEAKER_00', true, 'Okay.'],
    ]),
  );
  assert.deepEqual(things, []);
});

test('a name set after what the wearer says of someone is spoken of, not to; "everything" asked for keeps the last task’s day', async () => {
  const found = await items(
    dialogue([
      ['SPEAKER_01', false, 'The logo in high resolution, vector if you have it.'],
      ['SPEAKER_00', true, "The logo, my designer has it, Rodrigo. I'll ask him today."],
      ['SPEAKER_01', false, 'Can you send everything by Friday? Every day counts.'],
      ['SPEAKER_00', true, "By Friday, yes. I'll send it all together to your email."],
    ]),
  );
  assert.deepEqual(found, [
    ['Ask Rodrigo', '2026-03-04T23:59'],
    ['Send it all together to their email', '2026-03-06T23:59'],
  ]);
});

test('when asked when, the answer dates a request even past the asker’s own dated plan in the same turn', async () => {
  const found = await items(
    dialogue([
      [
        'SPEAKER_01',
        false,
        "So from you I'll need your last two payslips. You upload through the portal, I'll send the link after this call.",
      ],
      ['SPEAKER_00', true, 'How soon do you need them?'],
      ['SPEAKER_01', false, 'If I get them by Friday I can have a pre-approval by the middle of next week.'],
    ]),
  );
  assert.deepEqual(found[0], ['Send my last two payslips', '2026-03-06T23:59']);
});

test('a request takes the day the wearer agreed to, not the day of the wearer’s own task said after it', async () => {
  const found = await items(
    dialogue([
      ['SPEAKER_01', false, 'Thursday the 12th, same time, half past ten?'],
      ['SPEAKER_00', true, "Thursday the 12th, ten thirty. I'll check with him tonight but it should be okay."],
      ['SPEAKER_01', false, 'Please bring your latest pension statements and three months of payslips.'],
    ]),
  );
  assert.ok(
    found.some(
      ([description, due]) => /^Bring my latest pension statements/.test(description) && due === '2026-03-12T23:59',
    ),
    JSON.stringify(found),
  );
});

test('a time of today already gone when it is said ("tonight" at half past seven) is due by the day’s end', async () => {
  const found = await items(memo("I'll text the recipe to Jess tonight.", { startedAt: '2026-03-04T19:30:00-05:00' }));
  assert.deepEqual(found, [['Text the recipe to Jess', '2026-03-04T23:59']]);
});

test('a plural the lexicon does not know ("screenshots") is what "them" means, and the answer taking it on is one task', async () => {
  const found = await items(
    dialogue([
      ['SPEAKER_01', false, 'Can you send me the usability test results by Monday?'],
      ['SPEAKER_00', true, "Yes, I'll send the results to you by Monday noon."],
      [
        'SPEAKER_01',
        false,
        'Also, Priya from marketing needs the new screenshots. Could you share them with her tomorrow?',
      ],
      ['SPEAKER_00', true, "Sure, I'll share the screenshots with Priya tomorrow morning."],
    ]),
  );
  assert.deepEqual(found, [
    ['Send the results to them', '2026-03-09T12:00'],
    ['Share the screenshots with Priya', '2026-03-05T09:00'],
  ]);
});

test('"By the weekend?" asked on a Sunday evening is the coming weekend, and an answer of days alone dates the request', async () => {
  const found = await items(
    dialogue(
      [
        [
          'SPEAKER_01',
          false,
          'A shared spreadsheet. Could you set it up? You are better at that than me. By the weekend?',
        ],
        ['SPEAKER_00', true, "Sì, by the weekend, by Saturday. I'll do one with tabs."],
      ],
      { startedAt: '2026-03-08T19:30:00-04:00' },
    ),
  );
  assert.deepEqual(found[0], ['Set up shared spreadsheet', '2026-03-14T23:59']);
});

test('"people" after a comma starts a clause of its own, so "Send them tonight, people make plans" redates the task', async () => {
  const found = await items(
    dialogue([
      ['SPEAKER_00', true, "I'll send the invites this weekend, I keep forgetting."],
      ['SPEAKER_01', false, 'Send them tonight, people make plans.'],
      ['SPEAKER_00', true, 'Fine, fine. Tonight.'],
    ]),
  );
  assert.deepEqual(found, [['Send the invites', '2026-03-04T18:00']]);
});

test('"them" after a firm that opens the sentence is the firm; "her" after a trip "to Porto" is the animal, not the place', async () => {
  const firm = await items(
    memo('Removals. Harbour Movers gave my sister a fair price, I will call them on Monday for a quote.'),
  );
  assert.ok(
    firm.some(([description]) => description.startsWith('Call Harbour Movers')),
    JSON.stringify(firm),
  );
  const pet = await items(
    memo(
      'Biscuit cries in the car for the ten minutes to Sintra, four hours to Porto will be awful. I need to ask the vet about something to calm her down.',
    ),
  );
  assert.ok(
    // "for the ten minutes to Sintra" is how far, not a due time ten minutes from now.
    pet.some(([description, due]) => description.includes('calm Biscuit down') && due === null),
    JSON.stringify(pet),
  );
});

test('a thing named after a task, in the same sentence or as a topic of its own, is what a later pronoun means', async () => {
  const renew = await items(
    memo(
      'Then Bolaji. Send Bolaji a firm email about the invoice tomorrow. The website domain expires on the twelfth, renew it by the tenth.',
    ),
  );
  assert.deepEqual(renew, [
    ['Send Bolaji a firm email about the invoice', '2026-03-05T23:59'],
    ['Renew the website domain', '2026-03-10T23:59'],
  ]);
  const photos = await items(
    dialogue([
      ['SPEAKER_00', true, 'I will open a savings account next week.'],
      ['SPEAKER_01', false, 'Good. And the passport photos.'],
      ['SPEAKER_01', false, 'Can you bring those by Friday?'],
      ['SPEAKER_00', true, 'Sure.'],
    ]),
  );
  assert.ok(
    photos.some(([description, due]) => /photos/.test(description) && due === '2026-03-06T23:59'),
    JSON.stringify(photos),
  );
});

test('"all of that" gathers the list said next in the same turn; a date said next only dates it', async () => {
  const upload = await items(
    dialogue([
      ['SPEAKER_01', false, 'Can you upload all of that to the portal by Friday?'],
      ['SPEAKER_01', false, 'The signed lease, the missing payslips, and the bank letter.'],
      ['SPEAKER_00', true, 'Yes, by Friday.'],
    ]),
  );
  assert.deepEqual(upload, [
    ['Upload the signed lease, the missing payslips, and the bank letter to the portal', '2026-03-06T23:59'],
  ]);
  const dated = await items(
    dialogue([
      ['SPEAKER_01', false, 'Can you get all that to us by next Friday?'],
      ['SPEAKER_01', false, 'Friday the thirteenth?'],
      ['SPEAKER_00', true, 'Sure.'],
    ]),
  );
  assert.ok(!dated.some(([description]) => /thirteenth/i.test(description)), JSON.stringify(dated));
});

test('a memo: "four a.m. Book the taxi" is two sentences, "Then — ask…" opens an instruction, a plan taken back with "no, wait … so no" goes, and "get up" acts on nothing', async () => {
  const found = await items(
    memo(
      [
        'Flight is Thursday, so the taxi at four, four a.m. Book the taxi tonight.',
        'Then — ask Mrs Okoro tomorrow if she can water the plants.',
        'Book the transfer from the airport — no, wait, my cousin is picking me up, so no transfer.',
        'Aisle seat, never the window, I need to get up.',
      ].join(' '),
    ),
  );
  const descriptions = found.map(([description]) => description);
  assert.ok(descriptions.includes('Book the taxi'), JSON.stringify(found));
  assert.ok(
    descriptions.some((description) => description.startsWith('Ask Mrs Okoro')),
    JSON.stringify(found),
  );
  assert.ok(!descriptions.some((description) => /transfer|^Get up/.test(description)), JSON.stringify(found));
});

test('a sentence saying where "it" is passes the pronoun on: "It’s in the folder in my office. I’ll scan it" scans the copy', async () => {
  const found = await items(
    dialogue([
      ['SPEAKER_01', false, 'Papá thinks you have the copy from when you did the paperwork.'],
      ['SPEAKER_00', true, 'I do.'],
      ['SPEAKER_00', true, "It's in the folder in my office."],
      ['SPEAKER_00', true, "I'll scan it and send it to you tomorrow."],
    ]),
  );
  assert.ok(
    found.some(([description]) => description.startsWith('Scan the copy')),
    JSON.stringify(found),
  );
});

test('a guess at what others will do after a comma ("…, maybe they’ll say yes") leaves the promise whole and is not part of it', async () => {
  const found = await items(memo("I'll ask for the day off tomorrow, maybe they'll say yes."));
  assert.deepEqual(found, [['Ask for the day off', '2026-03-05T23:59']]);
  // The wearer's own "maybe" still hedges the promise.
  assert.deepEqual(await items(memo("I'll maybe ask for the day off tomorrow.")), []);
});

test('whom one tells, asks or calls is someone: "Tell them it’s urgent" after the payslips keeps "them"; a body such as the insurance stands', async () => {
  const told = await items(
    dialogue([
      ['SPEAKER_01', false, 'And your last three payslips.'],
      ['SPEAKER_00', true, 'The payslips I can send tonight.'],
      ['SPEAKER_01', false, 'Call them and tell them it is urgent, please.'],
      ['SPEAKER_00', true, 'Okay.'],
    ]),
  );
  assert.ok(
    !told.some(([description]) => /payslips it|Call (?:the )?payslips/.test(description)),
    JSON.stringify(told),
  );
  const insurer = await items(
    dialogue([
      ['SPEAKER_01', false, 'Ask your insurance company about the excess.'],
      ['SPEAKER_00', true, 'I will call them tomorrow.'],
    ]),
  );
  assert.ok(
    insurer.some(([description]) => /insurance company/.test(description)),
    JSON.stringify(insurer),
  );
});

test('a name or "the … one" after a comma names the object again and stays in the task; a word said again after a dash is said once', async () => {
  const found = await items(
    dialogue([
      ['SPEAKER_01', false, 'And bring the — the cream, the Hirudoid, for bruises.'],
      ['SPEAKER_00', true, 'Okay, Hirudoid.'],
      ['SPEAKER_01', false, 'Can you also look at the bug Sara reported, the VAT rounding one?'],
      ['SPEAKER_00', true, 'Sure.'],
    ]),
  );
  const descriptions = found.map(([description]) => description);
  assert.ok(
    descriptions.some((description) => /^Bring the cream, the Hirudoid/.test(description)),
    JSON.stringify(found),
  );
  assert.ok(
    descriptions.some((description) => /bug Sara reported, the VAT rounding one/.test(description)),
    JSON.stringify(found),
  );
});

test('a verb that names the whole task ("I’ll register by Sunday") is a task with its date, not without one', async () => {
  assert.deepEqual(await items(memo("The club run is on the 15th. I'll register by Sunday.")), [
    ['Register', '2026-03-08T23:59'],
  ]);
  assert.deepEqual(await items(memo('The club run is on the 15th. I need to register.')), []);
});

test('"him" is a person, never a name said with "the" ("his acoustic, the Yamaha")', async () => {
  const found = await items(
    memo("Gideon said he'd lend me his acoustic, the Yamaha, so I'll pick it up from him on Thursday."),
  );
  assert.ok(found.length > 0, 'the pick-up is a task');
  assert.ok(!found.some(([description]) => /from Yamaha/.test(description)), JSON.stringify(found));
});

test('a verb that is the whole task is for what the sentence named before it ("the midwifery course …, and I’m going to apply")', async () => {
  const found = await items(
    memo("Second thing: the midwifery specialization at UERJ, applications open in May, and I'm going to apply."),
  );
  assert.ok(
    found.some(([description]) => description === 'Apply for the midwifery specialization'),
    JSON.stringify(found),
  );
});

test('an "if" someone asked is a question reported, not a condition on the task said after it', async () => {
  const found = await items(
    memo(
      'Carla asked if I can take her Saturday shift, the eleventh, and I said yes, so I need to tell the charge nurse, Dona Marta, tomorrow.',
    ),
  );
  assert.ok(
    found.some(
      ([description, due]) => description === 'Tell the charge nurse, Dona Marta' && due === '2026-03-05T23:59',
    ),
    JSON.stringify(found),
  );
  // A condition still conditions: "if they call, I'll tell the nurse".
  assert.deepEqual(await items(memo("If the ward calls, I'll tell the charge nurse tomorrow.")), []);
});

test('"Email is fine" is a statement about email, not the task "Email"', async () => {
  const found = await items(
    dialogue([
      ['SPEAKER_00', true, "Okay, I'll send the photos today. Your number's on the invoice, right?"],
      ['SPEAKER_01', false, 'Yes, the mobile. WhatsApp is fine.'],
      ['SPEAKER_00', true, 'And the signed letter?'],
      ['SPEAKER_01', false, 'Email is enough for the board. The physical one later.'],
    ]),
  );
  assert.ok(!found.some(([description]) => /^(?:Email|WhatsApp) is\b/.test(description)), JSON.stringify(found));
});

test('a list said aloud: the topic a heading names goes with the first task under it that does not name it', async () => {
  const found = await items(
    memo(
      "Okay, errands. Two: residence card. It runs out in January, so I'll book the earliest slot at the immigration office by Friday. Three, call the dentist about moving my cleaning. Next, the photos. I'll get the album from Mum on Saturday.",
    ),
  );
  const descriptions = found.map(([description]) => description);
  assert.ok(
    descriptions.includes('Book the earliest slot at the immigration office (residence card)'),
    JSON.stringify(found),
  );
  // An item said with its own verb is its own topic; a task that names its heading's topic stays as said.
  assert.ok(descriptions.includes('Call the dentist about moving my cleaning'), JSON.stringify(found));
  assert.ok(descriptions.includes('Get the album from Mum (photos)'), JSON.stringify(found));
  const named = await items(memo("Two: the cake. I'll order the cake from Nandi's on Monday."));
  assert.deepEqual(
    named.map(([description]) => description),
    ["Order the cake from Nandi's"],
  );
});

test('a numbered item after a dash or comma, or an ordinal, opens an instruction; "chase", "fill", "request" are task verbs', async () => {
  const found = await items(
    memo(
      "Club stuff. One — chase the match fees from last season, there's still about three hundred quid outstanding. Second — renew the parking permit. Three, request the bank statements from Lloyds.",
    ),
  );
  assert.deepEqual(
    found.map(([description]) => description),
    ['Chase the match fees from last season', 'Renew the parking permit', 'Request the bank statements from Lloyds'],
  );
});

test('a closing stretch with no subject of its own dates the tasks before it', async () => {
  assert.deepEqual(
    await items(memo("I'll collect the subs, I'll chase the lads in the group, everyone by the end of the month.")),
    [
      ['Collect the subs', '2026-03-31T23:59'],
      ['Chase the lads in the group', '2026-03-31T23:59'],
    ],
  );
});

test('where a deliverable has to be by a date is a task to send it there ("the accounts have to go to the league by …")', async () => {
  assert.deepEqual(
    await items(memo('Two, the annual accounts have to go to the league by the thirtieth, otherwise we lose points.')),
    [['Send the annual accounts', '2026-03-30T23:59']],
  );
  assert.deepEqual(await items(memo('One: the lab report has to be on Pegaz by Sunday night.')), [
    ['Submit the lab report', '2026-03-08T20:00'],
  ]);
  // Without a date it may be anyone's: "the boxes have to go to the tip".
  assert.deepEqual(await items(memo('The boxes have to go to the tip at some point.')), []);
});

test('"get going", "bring home", "change of topic" name nothing to act on', async () => {
  const found = await items(
    memo("Okay, change of topic before Maman cries. Anyway, I need to get going. I'll bring home on Friday."),
  );
  assert.deepEqual(found, []);
});

test('"find" names a task: "I need to find a cat sitter"', async () => {
  const found = await items(
    dialogue([
      ['SPEAKER_01', false, "And who's feeding Mochi while you're in Singapore?"],
      ['SPEAKER_00', true, "Ugh, Mochi. My brother's away that week. I need to find a cat sitter."],
    ]),
  );
  assert.ok(
    found.some(([description]) => description === 'Find a cat sitter'),
    JSON.stringify(found),
  );
});

test('"I promised my husband Tomasz I’d fix the tap this weekend" is a promise owed', async () => {
  assert.deepEqual(
    await items(memo("I also promised my husband Tomasz I'd fix the leaking kitchen tap this weekend.")),
    [['Fix the leaking kitchen tap', '2026-03-07T23:59']],
  );
});

test('"instead" at the end of a task’s clause is dropped ("Take azithromycin instead, one tablet a day")', async () => {
  const found = await items(
    dialogue([
      ['SPEAKER_01', false, "You're allergic to penicillin, so I'll prescribe azithromycin instead, one tablet a day."],
      ['SPEAKER_00', true, 'Okay, thank you.'],
    ]),
  );
  assert.ok(
    found.some(([description]) => description === 'Take azithromycin, one tablet a day'),
    JSON.stringify(found),
  );
});

test('a thing asked after as done and not done ("Did you ever update the API docs?" "Ai, no. Tomorrow.") is still to do', async () => {
  const descriptions = async (lines: Array<[string, boolean, string]>) =>
    (await engine.extractActionItems(dialogue(lines), [])).map((item) => item.description);
  assert.deepEqual(
    await descriptions([
      ['Wambui', false, 'And Otieno, did you ever update the API docs? The client asked last week.'],
      ['Otieno', true, "Ai, no. I'll do it tomorrow morning."],
    ]),
    ['Update the API docs'],
  );
  assert.deepEqual(
    await descriptions([
      ['Mum', false, 'Did you find a flat yet?'],
      ['Lena', true, 'Not yet, this week.'],
    ]),
    ['Find a flat'],
  );
  // Done already, a question of where or how, or no errand at all: nothing owed.
  for (const lines of [
    [
      ['Mum', false, 'Did you book the vet?'],
      ['Lena', true, 'Yes, Thursday at four.'],
    ],
    [
      ['Student', false, 'Where did you learn the technique?'],
      ['Ngozi', true, 'Not at university, sadly.'],
    ],
    [
      ['Sam', false, 'Did you catch the match last night?'],
      ['Lena', true, 'No, I was asleep.'],
    ],
  ] as Array<Array<[string, boolean, string]>>) {
    assert.deepEqual(await descriptions(lines), [], JSON.stringify(lines));
  }
});

test('an answer that makes its own promise is the task, not the errand asked after', async () => {
  const input = dialogue([
    ['Joana', false, 'Did you book the restaurant? It fills up on Saturdays.'],
    ['Rui', true, "Not yet. I'll call Casa Lucio tomorrow morning."],
  ]);
  const descriptions = (await engine.extractActionItems(input, [])).map((item) => item.description);
  assert.deepEqual(descriptions, ['Call Casa Lucio']);
});

test('a topic said first with a bare "must pay" is what is paid; in the wearer’s notes, what someone wants by a date is theirs to send', async () => {
  const descriptions = async (text: string) =>
    (await engine.extractActionItems(memo(text), [])).map((item) => item.description);
  assert.deepEqual(await descriptions('The school fees for the term — must pay by the twenty-fifth.'), [
    'Pay the school fees for the term',
  ]);
  assert.deepEqual(await descriptions('Car registration, I have to renew by Monday.'), ['Renew the car registration']);
  assert.deepEqual(
    await descriptions('Logbook — the depot wants copies of the logbook by Friday, that one is serious.'),
    ['Send copies of the logbook'],
  );
  // Without a date a want asks for nothing.
  assert.deepEqual(await descriptions('The depot wants copies of everything these days.'), []);
});

test('the wearer’s own promise said back to them, and a task put to them as a question, are theirs', async () => {
  const descriptions = async (lines: Array<[string, boolean, string]>) =>
    (await engine.extractActionItems(dialogue(lines), [])).map((item) => item.description);
  assert.deepEqual(
    await descriptions([
      ['Olga', false, "Sanna, you said you'd do the food plan again?"],
      ['Sanna', true, 'Yes, by Sunday.'],
    ]),
    ['Do the food plan again'],
  );
  assert.deepEqual(
    await descriptions([
      ['Mei', false, 'And next Saturday, you bring the okra seeds?'],
      ['Li', true, 'Yes, yes.'],
    ]),
    ['Bring the okra seeds'],
  );
  // A question about the wearer's habits asks for nothing.
  assert.deepEqual(
    await descriptions([
      ['Mei', false, 'You do yoga?'],
      ['Li', true, 'Sometimes.'],
    ]),
    [],
  );
});

test('a medicine said with how often to take it is the wearer’s to take; someone else’s habit is not', async () => {
  const descriptions = async (lines: Array<[string, boolean, string]>) =>
    (await engine.extractActionItems(dialogue(lines), [])).map((item) => item.description);
  assert.deepEqual(
    await descriptions([
      ['Pharmacist', false, 'Cetirizine, one a day, you can get it off the shelf just there.'],
      ['Omar', true, 'Great, thanks.'],
    ]),
    ['Take cetirizine, one a day'],
  );
  assert.deepEqual(
    await descriptions([
      ['Priya', false, 'My mum takes metformin twice a day.'],
      ['Omar', true, 'Oh right.'],
    ]),
    [],
  );
});

test('a need the wearer owns up to is theirs; a slot chosen or a supposition is no task', async () => {
  assert.deepEqual(
    await items(memo("Someone has to collect Mum's birthday cake on Saturday, and I suppose that's me.")),
    [["Collect Mum's birthday cake", '2026-03-07T23:59']],
  );
  const slot = dialogue([
    ['Receptionist', false, 'We have Thursday the 12th at 4:15 pm with Aoife.'],
    ['Dara', true, "Perfect, I'll take that one."],
  ]);
  assert.deepEqual(await items(slot), []);
  assert.deepEqual(await items(memo("I'm supposing the plumber comes on Friday.")), []);
});

test('"and again" left over once the times are out is dropped; "his" is the name said in the same sentence', async () => {
  const input = dialogue([
    ['Neighbour', false, 'Could you keep an eye on the flat while I am away?'],
    ['Dara', true, 'Of course. I will water your plants the day after tomorrow, and again at the weekend.'],
    ['Dara', true, 'Oh, and I promised Kofi I would return his drill on the 9th.'],
  ]);
  const got = await items(input);
  assert.ok(
    got.some(([description]) => description === "Water Neighbour's plants"),
    JSON.stringify(got),
  );
  assert.ok(
    got.some(([description, due]) => description === "Return Kofi's drill" && due === '2026-03-09T23:59'),
    JSON.stringify(got),
  );
});

test('"him" is not the wearer another speaker closes on, nor a possessor with nothing after it', async () => {
  const call = memo(
    [
      "Speaker 1: Mum wants Reverend MacLeod, because he did Grandpa's.",
      'Speaker 0: Does he still do them?',
      "Speaker 1: Seventy-eight. Can you phone him? I just can't do another phone call today, Fi.",
      "Speaker 0: Course. I'll phone him tonight.",
    ].join('\n'),
    { userName: 'Fiona' },
  );
  assert.deepEqual(await items(call), [['Phone Reverend MacLeod', '2026-03-04T18:00']]);
});

test('the same task said twice is one, however the tagger read its verb; a task verb opening a sentence is no name', async () => {
  assert.deepEqual(await items(memo('Em... oh, and ring Gran. Just ring Gran. That’s it.')), [['Ring Gran', null]]);
  const got = await items(
    memo(
      "Three. Ring Mum about Sunday, she wants to know if I'm coming, and I am, tell her I'm bringing the pani popo.",
    ),
  );
  assert.ok(
    got.every(([description]) => !description.includes('Ring Mum I')),
    JSON.stringify(got),
  );
});

test('in a dictated list without numbers, "it" after a heading is the heading, unless a task or a thing comes between', async () => {
  const text = [
    'Okay. To-do for the week. Council tax. Due on the first, and the direct debit bounced because I moved the money.',
    'So pay it online first thing tomorrow.',
    "Mum's prescription. It's ready at the pharmacy on Friday, the new inhaler. Pick it up Friday after work.",
    "Money first. Invoice Kemi's agency for the March work. Send it by Wednesday.",
  ].join(' ');
  const got = await items(memo(text));
  assert.deepEqual(
    got.map(([description]) => description),
    ['Pay Council tax online', "Pick up Mum's prescription after work", "Invoice Kemi's agency for the March work"],
  );
});

test('an amount said to be due is paid as the thing named before it ("the vendor fee, …, eight hundred, is due")', async () => {
  assert.deepEqual(
    await items(memo('And the vendor fee, first installment, eight hundred, is due by the end of the month.')),
    [['Pay the vendor fee', '2026-03-31T23:59']],
  );
  assert.deepEqual(await items(memo('The deposit, five hundred, is due Friday.')), [
    ['Pay the deposit', '2026-03-06T23:59'],
  ]);
});
