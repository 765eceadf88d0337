import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TranscriptInput } from '../../src/processing/engine.js';
import { analysisOf } from '../../src/processing/local/analysis.js';
import { createLocalEngine } from '../../src/processing/local/index.js';
import { viableCandidates } from '../../src/processing/local/memories.js';
import { dialogue, memo, wallClock } from './inputs.js';

// Conversations start on Wednesday 2026-03-04 09:00 in New York unless stated otherwise.
const engine = createLocalEngine();

async function items(input: TranscriptInput): Promise<Array<[string, string | null]>> {
  const extracted = await engine.extractActionItems(input, []);
  return extracted.map((item) => [item.description, wallClock(item.dueAt, input.timezone)]);
}

async function memories(input: TranscriptInput): Promise<string[]> {
  return (await engine.extractMemories(input, [])).map((memory) => memory.content);
}

test('another speaker’s instruction with a fronted date is the wearer’s task', async () => {
  const input = memo('Speaker 1: By Monday, fill in the visa form.\nSpeaker 0: Okay.');
  assert.deepEqual(await items(input), [['Fill in the visa form', '2026-03-09T23:59']]);
});

test('an arranged plan in the progressive is a task; a journey is not', async () => {
  assert.deepEqual(await items(memo('Tomorrow I’m mailing the contract.')), [
    ['Mail the contract', '2026-03-05T23:59'],
  ]);
  assert.deepEqual(await items(memo('I’m calling the landlord tonight.')), [['Call the landlord', '2026-03-04T18:00']]);
  assert.deepEqual(await items(memo('I’m flying out tomorrow at noon.')), []);
});

test('a declined request and a plan taken back are not tasks', async () => {
  const declined = memo(
    'Speaker 1: Can you pick up the dry cleaning on Thursday?\nSpeaker 0: No, sorry, I can’t this week.',
  );
  assert.deepEqual(await items(declined), []);
  const taken = memo('Speaker 0: I’ll book the restaurant for Friday.\nSpeaker 1: Never mind, it’s been cancelled.');
  assert.deepEqual(await items(taken), []);
});

test('a pronoun is resolved to the person last named, or dropped with its preposition', async () => {
  const named = memo('Speaker 1: Did you talk to Maria?\nSpeaker 0: Not yet. I’ll send the slides to her tomorrow.');
  assert.deepEqual(await items(named), [['Send the slides to Maria', '2026-03-05T23:59']]);
  assert.deepEqual(await items(memo('I’ll send the slides to her tomorrow.')), [
    ['Send the slides', '2026-03-05T23:59'],
  ]);
});

test('a task without its own date takes the day named just before it', async () => {
  const input = memo(
    'Speaker 1: Let’s meet on Friday at ten.\nSpeaker 0: Great. I’ll send you the front yard quote the same day.',
  );
  assert.deepEqual(await items(input), [['Send them the front yard quote', '2026-03-06T10:00']]);
});

test('facts behind a lead-in, general fact shapes and a relative named in passing', async () => {
  assert.deepEqual(await memories(memo('Turns out I’m lactose intolerant.')), ['User is lactose intolerant']);
  assert.deepEqual(await memories(memo('They said I have sleep apnea.')), ['User has sleep apnea']);
  // The shape finds the habit, and the pastime its instrument; which is kept is the memory model's call
  // (memory-model.ts), and the instrument goes when the whole clause is kept beside it.
  const band = memo('I play drums in a band.');
  assert.deepEqual(
    viableCandidates(analysisOf(band), band.userName).map((fact) => fact.content),
    ['User plays drums in a band', 'User plays the drums'],
  );
  assert.deepEqual(await memories(memo('My brother Karim is visiting next week.')), [
    'User’s brother is named Karim'.replace('’', "'"),
  ]);
});

test('the wearer confirming another speaker’s question is the wearer’s fact; another’s own fact is not', async () => {
  const confirmed = memo('Speaker 1: Still training for the half marathon?\nSpeaker 0: Yep.');
  assert.deepEqual(await memories(confirmed), ['User is still training for the half marathon']);
  const theirs = memo('Speaker 1: I grew up in Porto.\nSpeaker 0: Nice.');
  assert.deepEqual(await memories(theirs), []);
});

test('fragments are not memories', async () => {
  assert.deepEqual(await memories(memo('I never got to.')), []);
});

test('events: counted dates, follow-up visits and launches', async () => {
  const launch = await engine.structure(memo('The launch is three weeks from today.'));
  assert.deepEqual(
    launch.events.map((event) => [event.title, wallClock(event.start, 'America/New_York')]),
    [['Launch', '2026-03-25T09:00']],
  );
  const visit = await engine.structure(
    memo('Speaker 1: I want to see you again for a follow-up in two weeks.\nSpeaker 0: Okay.'),
  );
  assert.deepEqual(
    visit.events.map((event) => wallClock(event.start, 'America/New_York')),
    ['2026-03-18T09:00'],
  );
});

test('the name the wearer calls an unnamed voice stands for "you", and a closing name is no part of the task', async () => {
  const input = memo(
    [
      'Speaker 0: Morning, Renata. I checked the invoice.',
      'Speaker 1: The retainer amount is wrong.',
      'Speaker 0: Right, I will send you a corrected invoice by Thursday, Renata.',
    ].join('\n'),
  );
  assert.deepEqual(await items(input), [['Send Renata a corrected invoice', '2026-03-05T23:59']]);
  assert.deepEqual(await items(memo("I'll call the plumber tomorrow, Sam.")), [
    ['Call the plumber', '2026-03-05T23:59'],
  ]);
});

test('events: a hyphenated or -ing event word names the plan; a time word or a bare title never does', async () => {
  const followUp = await engine.structure(
    memo('Speaker 1: The oncology follow-up. The seventh of April, right?\nSpeaker 0: Yes, I have it in my calendar.'),
  );
  assert.deepEqual(
    followUp.events.map((event) => event.title),
    ['Oncology Follow-up'],
  );
  const fitting = await engine.structure(
    memo('Speaker 1: Ready for a final fitting in two weeks, Saturday the 21st.\nSpeaker 0: Perfect, I will be there.'),
  );
  assert.deepEqual(
    fitting.events.map((event) => event.title),
    ['Final Fitting'],
  );
  const night = await engine.structure(memo('Speaker 0: Monday night I am off, finally.\nSpeaker 1: Nice.'));
  assert.ok(!night.events.some((event) => /^Night/.test(event.title)), JSON.stringify(night.events));
});

test('events: a short reply that accepts the time takes the plan its question put; "works" names none', async () => {
  const visit = await engine.structure(
    memo(
      'Speaker 1: Our loss adjuster will come to see the flat. Is Tuesday the 10th at ten okay?\nSpeaker 0: Yes, Tuesday the 10th works.',
    ),
  );
  assert.deepEqual(
    visit.events.map((event) => event.title),
    ['Loss Adjuster'],
  );
});

// A catch-up between friends, labelled with names, as a newcomer typed it.
const CATCH_UP = [
  "Jess: Hey! It's been ages. How's life?",
  "Me: Pretty good! Busy with work. I'm a product designer at a fintech startup now, been there about two years.",
  'Jess: Oh nice. Where did you grow up again?',
  'Me: I grew up in Porto, in Portugal.',
  "Jess: That's right. And how's Daniel?",
  "Me: Daniel's great. We've been together five years now, we just adopted a cat called Miso.",
  'Jess: Aww. Hey, we should get dinner soon. Thai place on Friday?',
  "Me: I'd love to, but I'm allergic to peanuts, so Thai can be tricky. Maybe the Italian place instead?",
  'Jess: Sure, Italian on Friday at 7 then.',
  'Me: Perfect, see you then.',
].join('\n');

test('a catch-up: the animal is the one called by its name, an allergy is kept, the dinner takes the time settled later', async () => {
  const input = memo(CATCH_UP, { timezone: 'Europe/London', startedAt: '2026-11-28T18:50:00Z', userName: 'Alex' });
  const found = await memories(input);
  // "we just adopted a cat called Miso" is one fact: the cat and its name, said once.
  assert.equal(found.filter((memory) => /\bcat\b.*\bMiso\b/.test(memory)).length, 1, JSON.stringify(found));
  assert.ok(found.includes('User is allergic to peanuts'), JSON.stringify(found));
  assert.ok(!found.some((memory) => /cat is named Daniel|been together/.test(memory)), JSON.stringify(found));
  const { events } = await engine.structure(input);
  assert.deepEqual(
    events.map((event) => [event.title, wallClock(event.start, 'Europe/London')]),
    [['Dinner with Jess', '2026-12-04T19:00']],
  );
});

test('"this weekend" said at the weekend is the one under way, and a note to self may keep its "I need to"', async () => {
  const saturday = { timezone: 'Europe/London', startedAt: '2026-11-28T18:50:00Z' };
  assert.deepEqual(await items(memo('Note to self: I need to clean out the garage this weekend.', saturday)), [
    ['Clean out the garage', '2026-11-29T23:59'],
  ]);
  const sunday = { timezone: 'Europe/London', startedAt: '2026-11-29T10:00:00Z' };
  assert.deepEqual(await items(memo("I'll fill in the medical history form this weekend.", sunday)), [
    ['Fill in the medical history form', '2026-11-29T23:59'],
  ]);
});

test('events: a plan being moved is not on, and a reply dating a request just made names that task', async () => {
  const call = memo(
    [
      'Receptionist: Good morning, Bright Smile Dental, how can I help?',
      'Me: Hi, I have a cleaning booked with Dr. Patel on Tuesday at 10 am, but something came up and I need to reschedule.',
      'Receptionist: I can offer you Thursday the 12th at 2:30 pm.',
      'Me: Thursday the 12th at 2:30 works for me.',
      'Receptionist: Please send us your new insurance card by email.',
      "Me: Sure, I'll do that tomorrow.",
    ].join('\n'),
  );
  const { events } = await engine.structure(call);
  const when = events.map((event) => wallClock(event.start, 'America/New_York'));
  assert.ok(!when.includes('2026-03-10T10:00'), JSON.stringify(events));
  const tomorrow = events.find((event) => wallClock(event.start, 'America/New_York')?.startsWith('2026-03-05'));
  assert.match(tomorrow?.title ?? '', /insurance card/i, JSON.stringify(events));
});

test('a memo names no "Voice Memo" event, a plan is not titled with the wearer’s own name, a possessed subject ends a task', async () => {
  const errands = memo(
    "Okay, voice memo for the weekend. Don't forget to buy a birthday card for Mom, her birthday is next Wednesday.",
  );
  assert.deepEqual(await items(errands), [['Buy a birthday card for Mom', '2026-03-11T23:59']]);
  const { events } = await engine.structure(errands);
  assert.ok(!events.some((event) => /voice memo/i.test(event.title)), JSON.stringify(events));
  const standup = memo(
    ['Priya: Tom, can you pair with Alex on the latency issue tomorrow afternoon?', 'Tom: Yes, I can do that.'].join(
      '\n',
    ),
    { userName: 'Alex' },
  );
  const paired = await engine.structure(standup);
  assert.ok(!paired.events.some((event) => /^Alex\b/.test(event.title)), JSON.stringify(paired.events));
});

test('a GP visit: the medicine named after "called", an allergy said twice is one memory, a farewell dates no task', async () => {
  const visit = memo(
    [
      "Doctor: So I'd like to start you on a new medicine called amlodipine, five milligrams, once a day.",
      'Sam: Okay.',
      'Doctor: Any allergies I should know about?',
      "Sam: Just penicillin. I'm allergic to penicillin, I get a bad rash.",
      'Doctor: And if you can, keep a log of your readings at home with a cuff, twice a week.',
      "Sam: Okay, I'll pick up a cuff from the pharmacy.",
      'Doctor: Perfect. See you in three weeks, Sam.',
    ].join('\n'),
  );
  const found = await memories(visit);
  assert.ok(found.includes('User takes amlodipine'), JSON.stringify(found));
  assert.equal(found.filter((memory) => /penicillin/i.test(memory)).length, 1, JSON.stringify(found));
  const cuff = (await items(visit)).find(([text]) => /cuff/.test(text));
  assert.deepEqual(cuff, ['Pick up a cuff from the pharmacy', null]);
});

test('a month named bare after a deadline word: "before March" ends February, "by March" is its first day', async () => {
  const november = { startedAt: '2026-11-27T22:30:00-06:00', timezone: 'America/Chicago' };
  assert.deepEqual(await items(memo('I need to renew my passport before March, it expires in April.', november)), [
    ['Renew my passport', '2027-02-28T23:59'],
  ]);
  assert.deepEqual(await items(memo("I'll send the grant report by March.", november)), [
    ['Send the grant report', '2027-03-01T23:59'],
  ]);
});

test('an event takes the time asked for and answered just after it', async () => {
  const call = dialogue([
    ['Mum', false, "And don't forget, Priya's birthday party is on the 14th at our house."],
    ['Sam', true, "I didn't forget. What time?"],
    ['Mum', false, 'Around six. Your dad is doing the grill.'],
  ]);
  const { events } = await engine.structure(call);
  assert.deepEqual(
    events.map((event) => wallClock(event.start, 'America/New_York')),
    ['2026-03-14T18:00'],
  );
});

test('a landlord’s call: a day gone by is no event, a window of hours starts the visit, "him" is the trade named', async () => {
  const input = dialogue([
    ['Mr Okafor', false, "Hi Dana, it's Tunde Okafor, your landlord."],
    [
      'Dana',
      true,
      "The heating in my flat at 14 Aldridge Road has been off since Monday, and it's getting cold for my daughter.",
    ],
    [
      'Mr Okafor',
      false,
      "I'm sorry. I'll send a plumber on Friday morning between 8 and 10. Can you make sure someone is home to let him in?",
    ],
    ['Dana', true, "Yes, I'll be home Friday morning."],
  ]);
  const { events } = await engine.structure(input);
  assert.deepEqual(
    events.map((event) => wallClock(event.start, 'America/New_York')),
    ['2026-03-06T08:00'],
  );
  assert.deepEqual(await items(input), [['Make sure someone is home to let the plumber in', '2026-03-06T08:00']]);
});

test('chrono’s weekday with a span of hours is the coming one, not the week gone by', async () => {
  const { events } = await engine.structure(memo('The courier comes Friday from 10 to noon for the parcel.'));
  assert.deepEqual(
    events.map((event) => wallClock(event.start, 'America/New_York')),
    ['2026-03-06T10:00'],
  );
});

test('the wearer greeting "Dr Patel" names the doctor in the tasks and the overview; "and come back" is no task', async () => {
  const input = dialogue(
    [
      ['SPEAKER_00', false, 'Good morning, Dana. What brings you in today?'],
      ['SPEAKER_01', true, "Morning, Dr Patel. I've had these headaches for about two weeks."],
      [
        'SPEAKER_00',
        false,
        "I'd like you to get a blood test done this week, and book a follow-up with me in two weeks.",
      ],
      ['SPEAKER_01', true, "I'll book the blood test at reception today and come back on March 18th."],
    ],
    { userName: 'Dana' },
  );
  const found = await items(input);
  assert.deepEqual(
    found.map(([description]) => description),
    ['Book the blood test at reception', 'Book a follow-up with Dr Patel'],
  );
  const { overview } = await engine.structure(input);
  assert.match(overview, /^Dana and Dr Patel discussed/);
});

test('an event whose time today has gone by is not moved to the day’s end as a due date is', async () => {
  const { events } = await engine.structure(
    memo('The team meeting is today at 9 in the big room.', { startedAt: '2026-03-04T15:00:00-05:00' }),
  );
  assert.deepEqual(events, []);
  assert.deepEqual(
    await items(memo("I'll text the agenda to Jess tonight.", { startedAt: '2026-03-04T19:30:00-05:00' })),
    [['Text the agenda to Jess', '2026-03-04T23:59']],
  );
});
