import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CONVERSATION_CATEGORIES } from '../../src/domain/categories.js';
import { createLocalEngine } from '../../src/processing/local/index.js';
import { CATEGORY_EMOJI, CATEGORY_LEXICON } from '../../src/processing/local/lexicon.js';
import { dialogue, memo, wallClock } from './inputs.js';

const engine = createLocalEngine();

test('every category has a lexicon (other excepted) and an emoji', () => {
  for (const category of CONVERSATION_CATEGORIES) {
    assert.ok(CATEGORY_EMOJI[category].length > 0, category);
    if (category !== 'other') assert.ok(category in CATEGORY_LEXICON, category);
  }
});

test('a doctor visit is health, titled by its topic, with the health emoji', async () => {
  const input = dialogue([
    ['SPEAKER_01', false, 'Your blood pressure is a bit high, one forty-two over ninety-one. Any headaches?'],
    ['SPEAKER_00', true, "A few, mostly in the afternoon. I'm allergic to penicillin, by the way."],
    [
      'SPEAKER_01',
      false,
      'Please book a follow-up with the clinic in six weeks so we can recheck your blood pressure.',
    ],
  ]);
  const structure = await engine.structure(input);
  assert.equal(structure.category, 'health');
  assert.equal(structure.emoji, '🩺');
  assert.match(structure.title, /^Blood Pressure\b/);
  // The overview is written, not copied: who talked about what, and the user's commitment.
  assert.match(structure.overview, /^Sam and another person discussed blood pressure\b/);
  assert.match(structure.overview, /Sam will book a follow-up\b/);
  for (const [, , line] of [
    ['', '', 'Your blood pressure is a bit high'],
    ['', '', 'Please book a follow-up'],
  ]) {
    assert.ok(!structure.overview.includes(line), line);
  }
});

const CATEGORY_TABLE: Array<[string, string]> = [
  [
    'We need to refinance the mortgage before the interest rate goes up, and the tax refund should cover the fees.',
    'finance',
  ],
  ['The pull request breaks the staging deploy; the websocket server leaks memory after each restart.', 'technology'],
  ['The forecast says a storm with heavy snow and wind gusts tonight, so the avalanche risk is high.', 'weather'],
  ['The toddler refuses to nap at daycare and bedtime has become a battle since the regression started.', 'parenting'],
  ['Our flight lands at the airport at noon and the hotel lets us check in early; I packed the passport.', 'travel'],
  ['The realtor thinks the sellers will accept our offer if the inspection of the roof comes back clean.', 'real'],
];

for (const [text, category] of CATEGORY_TABLE) {
  test(`lexicon scoring files "${text.slice(0, 40)}…" under ${category}`, async () => {
    assert.equal((await engine.structure(memo(text))).category, category);
  });
}

test('no topical evidence gives other and a non-empty title', async () => {
  const structure = await engine.structure(memo('So, well, that was that, I guess.'));
  assert.equal(structure.category, 'other');
  assert.equal(structure.emoji, '💬');
  assert.equal(structure.title, 'Short Conversation');
});

test('titles never carry diarization placeholders or dates', async () => {
  const input = dialogue([
    ['SPEAKER_0', true, 'Speaker 0 here, the quarterly budget review moved to Tuesday.'],
    ['Speaker 1', false, 'Speaker 1 agrees, the budget review on Tuesday works.'],
  ]);
  const structure = await engine.structure(input);
  assert.equal(structure.title, 'Quarterly Budget Review');
  assert.doesNotMatch(structure.overview, /speaker\s*\d/i);
});

test('a title has at most ten words and is headline-cased', async () => {
  const text = 'The international conference on sustainable urban transportation infrastructure planning starts soon.';
  const { title } = await engine.structure(memo(text));
  assert.ok(title.split(' ').length <= 10, title);
  assert.match(title, /^[A-Z]/);
});

test('the overview keeps at most three sentences and about 400 characters', async () => {
  const sentences = Array.from(
    { length: 40 },
    (_, i) => `The budget line ${i} for the marketing campaign needs review by the finance team.`,
  );
  const { overview } = await engine.structure(memo(sentences.join(' ')));
  assert.ok(overview.length <= 400, String(overview.length));
  assert.ok((overview.match(/\./g) ?? []).length <= 3, '(overview.match(/\\./g) ?? []).length <= 3');
});

test('a dated plan of the user becomes an event in local time', async () => {
  const input = memo('My dentist appointment got moved to Tuesday the 17th at 3:30.', {
    startedAt: '2026-03-13T09:30:00-04:00',
  });
  const { events } = await engine.structure(input);
  assert.equal(events.length, 1);
  assert.equal(events[0].title, 'Dentist Appointment');
  assert.equal(wallClock(events[0].start, 'America/New_York'), '2026-03-17T15:30');
  assert.equal(events[0].duration, 30);
});

test('a rate ("walk 30 minutes a day") is no time: the advice is no event, the follow-up is', async () => {
  const { events } = await engine.structure(
    dialogue([
      ['Doctor', false, 'Cut down on salt and walk 30 minutes a day. We will see you for a follow-up in three months.'],
      ['SPEAKER_00', true, 'Okay, thank you.'],
    ]),
  );
  assert.deepEqual(
    events.map((event) => event.title),
    ['Follow-up with the Doctor'],
  );
});

test('an event takes its stated length and a name after "with"', async () => {
  const { events } = await engine.structure(memo("We're having dinner with Sarah on Friday at 7 for two hours."));
  assert.deepEqual(
    events.map((event) => [event.title, wallClock(event.start, 'America/New_York'), event.duration]),
    [['Dinner with Sarah', '2026-03-06T19:00', 120]],
  );
});

test('nouns WordNet files under procedures, classes and shows are events; "of course" is not a course', async () => {
  const text = 'My biopsy is on Tuesday at 10. Of course I will be there on Friday. The recital starts Saturday at 6.';
  const { events } = await engine.structure(memo(text, { startedAt: '2026-03-13T09:30:00-04:00' }));
  assert.deepEqual(
    events.map((event) => [event.title, wallClock(event.start, 'America/New_York')]),
    [
      ['Biopsy', '2026-03-17T10:00'],
      ['Recital', '2026-03-14T18:00'],
    ],
  );
});

test("hypothetical, past, cancelled and other people's plans are not events", async () => {
  const text = [
    'If we win the lottery we would fly to Bali on Monday.',
    'We had dinner with Tom yesterday.',
    'The concert on Saturday got cancelled.',
    'Mark has a meeting with his boss on Thursday at 4.',
  ].join(' ');
  assert.deepEqual((await engine.structure(memo(text))).events, []);
});

test('something that befell, or another speaker’s own task, is no event; whom a plan is with is said in it', async () => {
  const home = dialogue([
    ['Tunde', false, 'The boiler died again on Friday night, we were freezing.'],
    ['Manager', false, 'I will sort out the parking permits for the new starters on Friday.'],
    ['Dara', true, 'Okay, thanks.'],
  ]);
  assert.deepEqual((await engine.structure(home)).events, []);
  const clinic = dialogue([
    ['Receptionist', false, 'We can do a follow-up on Thursday the 12th at 4:15 pm with Aoife.'],
    ['Dara', true, "Perfect, I'll take that one."],
    ['Receptionist', false, "Lovely, and I'll pencil in the 19th for the review too."],
  ]);
  assert.deepEqual(
    (await engine.structure(clinic)).events.map((event) => [event.title, wallClock(event.start, 'America/New_York')]),
    [
      ['Follow-up with Aoife', '2026-03-12T16:15'],
      ['Review with the Receptionist', '2026-03-19T09:00'],
    ],
  );
});

test('the WordNet-derived lexicon files a physiotherapy session under health, not sports', async () => {
  const text =
    'The physiotherapist checked my rotator cuff again. The tendon is inflamed, so no overhead lifting; she showed me two stretches for the shoulder and booked another session.';
  assert.equal((await engine.structure(memo(text))).category, 'health');
});

test('a will and guardianship is filed by its setting or as legal, never as parenting', async () => {
  const input = dialogue([
    ['SPEAKER_01', false, 'So the will names your sister as guardian if anything happens to both of you.'],
    ['SPEAKER_00', true, 'Yes. And the estate goes into a trust for the kids until they turn twenty-five.'],
    ['SPEAKER_01', false, 'Then I will draft the trust deed, and you both sign in front of a witness at the notary.'],
  ]);
  assert.ok(
    ['legal', 'family'].includes((await engine.structure(input)).category),
    "['legal', 'family'].includes((await engine.structure(input)).category)",
  );
});

test('a memo is summarised as the user’s note, with what they will do', async () => {
  const text = 'Note to self: renew the car insurance before the policy lapses, and call the garage about the brakes.';
  const { overview } = await engine.structure(memo(text));
  assert.match(overview, /^Sam recorded a note about /);
  assert.match(overview, /Sam will /);
});

test('the person the wearer addresses by name is named in the overview and the title', async () => {
  const input = dialogue(
    [
      ['SPEAKER_00', true, 'Morning, Renata. I looked at the invoice for the brand workshop.'],
      ['SPEAKER_01', false, 'Perfect, thanks. The invoice has the wrong retainer amount.'],
      ['SPEAKER_00', true, "I'll send you a corrected invoice today, Renata."],
      ['SPEAKER_01', false, 'Great. The brand workshop invoice can wait until Friday.'],
    ],
    { userName: 'Mateus' },
  );
  const { title, overview } = await engine.structure(input);
  assert.match(title, /Invoice/);
  assert.match(title, / with Renata$/);
  assert.match(overview, /^Mateus and Renata discussed /);
  assert.doesNotMatch(overview, /Perfect/);
});

test("another speaker's relative's plan is not the wearer's event; a plan said to the wearer is", async () => {
  const input = dialogue([
    ['Speaker 0', true, 'I sent the invoice this morning.'],
    ['Speaker 1', false, 'Great. Also, my brother Karim is visiting next Tuesday, so I am off that day.'],
    ['Speaker 1', false, 'Can we do the review meeting on Thursday at 3 instead?'],
  ]);
  const { events } = await engine.structure(input);
  assert.deepEqual(
    events.map((event) => event.title),
    ['Review Meeting'],
  );
});

test('a clear setting names the scene of the headline: whom the wearer met, or what the encounter was', async () => {
  const physio = dialogue([
    ['SPEAKER_01', false, "Morning, I'm Tom, I'll be your physio today. So, the knee."],
    ['SPEAKER_00', true, 'It locks when I run, and the knee swells after cycling.'],
    [
      'SPEAKER_01',
      false,
      'I want you on the bike, not running, for six weeks. Knee exercises daily, and ice the knee.',
    ],
    ['SPEAKER_00', true, 'Cycling yes, running no. Got it.'],
  ]);
  const { title, overview } = await engine.structure(physio);
  assert.match(title, /with the Physio$/, title);
  // The overview names the unnamed other party by that role, and not as a topic.
  assert.match(overview, /^\S+ and the physio discussed (?!.*physio)/, overview);
  // A memo has no scene: its cues are errands.
  const note = await engine.structure(
    memo('Call the physio about the knee. Book the physio for Friday. Knee exercises.'),
  );
  assert.doesNotMatch(note.title, /with the|:/, note.title);
});

test('a dated plan that names nothing takes the occasion the conversation keeps naming; another day is another event', async () => {
  const input = dialogue([
    ['Diego', false, 'Our anniversary is coming up, five years.'],
    ['Vale', true, 'I know! I want the anniversary to be somewhere quiet.'],
    // Too long to borrow the word of the line before, and naming nothing itself: the occasion titles it.
    ['Diego', false, 'Then we go on Saturday the 21st, just us, and we stay out as late as we like.'],
    ['Vale', true, 'Perfect. And the dinner with my parents is on Friday at 7.'],
    ['Diego', false, 'And the dinner with the team is on Thursday the 26th at 8.'],
  ]);
  const { events } = await engine.structure(input);
  const titles = events.map((event) => [
    event.title.replace(/ with .*$/, ''),
    wallClock(event.start, 'America/New_York') ?? '',
  ]);
  assert.ok(
    titles.some(([title, at]) => title === 'Anniversary' && at.startsWith('2026-03-21')),
    JSON.stringify(titles),
  );
  assert.equal(titles.filter(([title]) => title.startsWith('Dinner')).length, 2, JSON.stringify(titles));
});

test('an event the wearer invites someone to is theirs, its word is lent to no other date, and "three months now", "ten years now" or "lasts three weeks" dates nothing', async () => {
  const input = memo(
    [
      'Mum: And Amara, is she still doing ballet?',
      "Priya: Yes, every Saturday. Amara's recital is on the 12th of December, can you come?",
      'Mum: Of course. Oh, and can you pick up my prescription on your way?',
      "Priya: Sure, I'll grab it Saturday.",
      "Mum: How's the new job?",
      "Priya: Good, I've been at Deloitte three months now.",
      "Priya: And I've been paddling with my canoe club for ten years now, the course lasts three weeks.",
    ].join('\n'),
    { userName: 'Priya Shah', startedAt: '2026-11-25T18:00:00+00:00', timezone: 'Europe/London' },
  );
  const { events } = await engine.structure(input);
  const found = events.map((event) => [event.title, wallClock(event.start, 'Europe/London')]);
  assert.deepEqual(
    found.filter(([title]) => title?.startsWith('Recital')),
    [['Recital with Mum', '2026-12-12T09:00']],
  );
  assert.ok(!found.some(([, at]) => at?.startsWith('2026-11-25')), JSON.stringify(found));
  const memories = (await engine.extractMemories(input, [])).map((memory) => memory.content);
  assert.ok(memories.includes('User has been at Deloitte three months'), memories.join(' | '));
});

test('names beyond Latin-1 stay whole, a same-day plan that names no event is no event, an offsite is one', async () => {
  const standup = memo(
    [
      'SPEAKER_00: Okay, quick standup. Joanna, you first.',
      "SPEAKER_01: Today I'm writing the rollback plan, and I'll have it in the wiki by Thursday.",
      'SPEAKER_00: Also reminder, the quarterly planning offsite is on March 19th in Rotterdam.',
      "SPEAKER_01: Noted. I'm on leave the 20th though, my sister's wedding in Gdańsk.",
    ].join('\n'),
    { userName: 'Joanna Kowalska', startedAt: '2026-03-10T09:00:00+01:00', timezone: 'Europe/Amsterdam' },
  );
  const { events } = await engine.structure(standup);
  assert.deepEqual(
    events.map((event) => [event.title, wallClock(event.start, 'Europe/Amsterdam')]),
    [
      ['Quarterly Planning Offsite', '2026-03-19T09:00'],
      ['Wedding in Gdańsk', '2026-03-20T09:00'],
    ],
  );
});

test('a speaker labelled by a role reads as that role: "the agent", not a person called Agent', async () => {
  const call = memo(
    [
      "Me: Hi, I'm calling about my internet, it's been dropping every evening since Monday.",
      'Agent: I can see a fault on the line. An engineer can come on Friday between 8 and 12.',
      'Me: Friday works.',
      'Agent: Please restart the router tonight and keep the receipt of any mobile data you buy until then.',
      'Me: Okay, will do.',
    ].join('\n'),
    { userName: 'Aisha Bello', startedAt: '2026-02-10T18:00:00+00:00', timezone: 'Europe/London' },
  );
  const { title, overview } = await engine.structure(call);
  assert.match(title, /with the Agent$/, title);
  assert.match(overview, /^Aisha Bello and the agent discussed/, overview);
  const found = (await engine.extractActionItems(call, [])).map((item) => item.description);
  assert.ok(
    found.some((description) => description.endsWith('any mobile data I buy')),
    found.join(' | '),
  );
});

test('a voice memo of the week: dates and times said apart, dinner at eight, a dated task titled by itself', async () => {
  const input = memo(
    [
      'Okay, voice note, Sunday evening. This week is chaos.',
      "Tuesday is Leo's football match at five, I promised I'd be there.",
      "We're having dinner at eight on Friday.",
      'Oh and pick up the dry cleaning Thursday.',
    ].join(' '),
    { startedAt: '2026-03-01T19:00:00-05:00' },
  );
  const { events, title } = await engine.structure(input);
  assert.doesNotMatch(title, /voice|chaos/i, title);
  const when = Object.fromEntries(events.map((event) => [event.title, wallClock(event.start, 'America/New_York')]));
  assert.equal(when['Football Match'], '2026-03-03T17:00', JSON.stringify(when));
  assert.equal(when.Dinner, '2026-03-06T20:00', JSON.stringify(when));
  assert.equal(when['Pick Up the Dry Cleaning']?.slice(0, 10), '2026-03-05', JSON.stringify(when));
});

test('an event already "with" someone takes no second party', async () => {
  const input = dialogue([
    ['Receptionist', false, 'We have an appointment with Dr Patel tomorrow at four fifteen, would that work?'],
    ['Sam', true, 'Tomorrow at four fifteen is perfect.'],
  ]);
  const { events } = await engine.structure(input);
  assert.deepEqual(
    events.map((event) => event.title),
    ['Appointment with Dr Patel'],
  );
});

test('a call with Mum: one relative in the title, a reply that agrees to the plan is the same event', async () => {
  const input = memo(
    [
      'Mum: Hello darling, how was the interview?',
      "Me: Good I think! It's the junior architect role at Foster's. How's Dad's knee?",
      "Mum: Better, your father and your sister say hi. Auntie Grace's birthday is on the 30th, we're doing lunch, can you come?",
      'Me: The 30th... yes, I can come.',
      'Mum: Bring that lemon cake you made last time, everyone loved it.',
    ].join('\n'),
    { userName: 'Me' },
  );
  const { title, events } = await engine.structure(input);
  // Whom it was with may follow ("… with Mum"); the topics name one relative at most.
  const topics = title.split(/ with /)[0];
  const relatives = topics.match(/\b(?:mum|dad|father|sister|auntie)\b/gi) ?? [];
  assert.ok(relatives.length <= 1, title);
  assert.doesNotMatch(title, /darling/i, title);
  assert.equal(events.length, 1, JSON.stringify(events.map((event) => event.title)));
  const found = await engine.extractActionItems(input, []);
  assert.ok(
    found.some((item) => item.description === 'Bring that lemon cake I made last time'),
    found.map((item) => item.description).join(' | '),
  );
});

test('a lecture: a role label reads as a role, a reply takes the plan asked about; a landlord reported on is not met', async () => {
  const lecture = memo(
    [
      "Prof. Adeyemi: Okay everyone, today we're covering price elasticity of demand.",
      "Student: Is that why insulin prices don't change demand much?",
      'Prof. Adeyemi: Exactly, insulin is inelastic.',
      'Kemi: Professor, is the midterm still on the 24th?',
      'Prof. Adeyemi: Yes, the 24th, in the main hall.',
    ].join('\n'),
    { userName: 'Kemi' },
  );
  const structure = await engine.structure(lecture);
  assert.match(structure.overview, /the student/, structure.overview);
  assert.deepEqual(
    structure.events.map((event) => event.title.split(' with ')[0]),
    ['Midterm'],
  );
  const flat = memo(
    [
      'Speaker 0: Listen, about the flat, the landlord called. He is selling the building.',
      'Speaker 1: Oh no. What now?',
      'Speaker 0: We have to be out by the end of November. I found a place with a garden.',
      'Speaker 1: A garden would be nice for the dog.',
    ].join('\n'),
  );
  const { overview } = await engine.structure(flat);
  assert.doesNotMatch(overview, /and the landlord (?:discussed|talked)/, overview);
});

test('a name greeted or thanked is who took part, and "the date" names no plan', async () => {
  const input = memo(
    [
      'Agent: Thank you for calling Northwind Energy, my name is Carla, how can I help?',
      'Sam: Hi Carla, I need to close my account, I am moving house.',
      "Agent: What's the date you're moving out?",
      'Sam: The 15th of next month.',
      'Agent: I will send the final bill to your new address.',
      'Sam: Thanks Carla.',
    ].join('\n'),
  );
  const { title, events } = await engine.structure(input);
  assert.doesNotMatch(title, /Carla/, title);
  for (const event of events) assert.doesNotMatch(event.title, /^Date\b/, event.title);
});

test('a capitalised word after a stage note opens what is said: "[pause] Angry." names nobody, and the note is no topic', async () => {
  const input = dialogue([
    ['Speaker 1', false, 'And how does it feel when you say nobody asked you to?'],
    ['SPEAKER_00', true, '[pause] Angry. Which makes me feel guilty.'],
    ['Speaker 1', false, 'Angry, guilty, and then the body takes over. That is the panic loop.'],
    ['SPEAKER_00', true, 'Yeah. The panic loop.'],
  ]);
  const { title, overview } = await engine.structure(input);
  // Not the person talked with; and the stage note is no topic.
  assert.doesNotMatch(`${title} ${overview}`, /with Angry|and Angry discussed|\bpause\b/i, `${title} | ${overview}`);
});

test('"Thursday is the problem" names no plan', async () => {
  const input = dialogue([
    ['Tomek', false, 'Wednesday works for me. Thursday is the problem.'],
    ['SPEAKER_00', true, 'Your Kraków thing.'],
  ]);
  const { events } = await engine.structure(input);
  assert.ok(!events.some((event) => /problem/i.test(event.title)), JSON.stringify(events.map((e) => e.title)));
});

test('a headline names whom it was with only when their whole name fits', async () => {
  const input = dialogue([
    [
      'Dr. Farah',
      false,
      'So the kidney values at the Jumeirah Pet Clinic are raised, chronic kidney disease, early stage.',
    ],
    ['SPEAKER_00', true, 'What about the renal diet food and the water fountain for the kidney values?'],
    ['Dr. Farah', false, 'The renal diet food, yes, and the water fountain. Kidney values again in four weeks.'],
  ]);
  const { title } = await engine.structure(input);
  assert.doesNotMatch(title, /with Dr\.?$/, title);
});

test('a function word carrying its full stop ("fitting me in.") is no topic', async () => {
  const input = dialogue([
    ['Dr Ines', false, 'Hi, thanks for fitting me in.'],
    ['SPEAKER_00', true, 'No problem. The ultrasound is booked and the naproxen is working.'],
    ['Dr Ines', false, 'Good, keep the naproxen going and bring the ultrasound report. Thanks for fitting me in.'],
  ]);
  const { title, overview } = await engine.structure(input);
  assert.doesNotMatch(`${title} ${overview}`, /\bin\.(?:\s|$|,)/i, `${title} | ${overview}`);
});

test('an occasion named by whose it is ("Mum’s birthday is Saturday") is on the calendar; a dated day gone by is not', async () => {
  const noted = await engine.structure(
    memo("Mum's sixtieth birthday is Saturday. Ivy's concert is on Thursday at six."),
  );
  assert.deepEqual(
    noted.events.map((event) => [event.title, wallClock(event.start, 'America/New_York')?.slice(0, 10)]),
    [
      ['Sixtieth Birthday', '2026-03-07'],
      ['Concert', '2026-03-05'],
    ],
  );
  // Said on Wednesday the 4th: "Monday the 2nd" is two days gone, not a Monday the 2nd a year on.
  const past = await engine.structure(memo('The adjuster came about the incident on Monday the 2nd.'));
  assert.deepEqual(past.events, []);
});

test('"book club" is a club, not a booking; a memo line naming whom one sees on a day is an appointment', async () => {
  const club = await engine.structure(
    dialogue([
      ['Lena', false, 'Are you still coming to book club on the 12th?'],
      ['Sam', true, "Yes! I'll bring the wine."],
    ]),
  );
  assert.deepEqual(
    club.events.map((event) => event.title),
    ['Book Club with Lena'],
  );
  const dentist = await engine.structure(memo('Voice memo. Dentist on the 12th at half past two. Send the invoice.'));
  assert.deepEqual(
    dentist.events.map((event) => [event.title, wallClock(event.start, 'America/New_York')]),
    [['Dentist', '2026-03-12T14:30']],
  );
});

test('a memo heading before the occasion ("Personal, …") does not make it someone else’s; a name and "he" still do', async () => {
  const noted = await engine.structure(memo("Personal, Mum's sixtieth birthday is Saturday."));
  assert.deepEqual(
    noted.events.map((event) => event.title),
    ['Sixtieth Birthday'],
  );
  const theirs = await engine.structure(memo('Mark, he has a meeting on Thursday.'));
  assert.deepEqual(theirs.events, []);
});

test('the wearer’s own name is never a title topic', async () => {
  const input = memo(
    [
      "Speaker 0: Hi, I'm collecting a prescription for Nair. Priya Nair.",
      "Speaker 1: It's the antihistamines. The inhaler isn't in yet, we'll text you.",
      'Speaker 0: Could you also put aside a flu jab for my husband Arjun?',
      'Speaker 1: We do walk-in flu jabs on Tuesday afternoons.',
    ].join('\n'),
    { userName: 'Priya Nair' },
  );
  const { title } = await engine.structure(input);
  assert.doesNotMatch(title, /Priya|Nair/, title);
});

test('a milestone birthday named by its ordinal is an event; a fortieth anniversary stays an anniversary', async () => {
  const birthday = memo("Listen, we're still coming down for your seventieth on Saturday the 7th.");
  const found = (await engine.structure(birthday)).events.map((event) => [
    event.title,
    wallClock(event.start, 'America/New_York'),
  ]);
  assert.ok(
    found.some(([title, at]) => title === 'Seventieth Birthday' && at?.startsWith('2026-03-07')),
    JSON.stringify(found),
  );
  const anniversary = memo("It's my parents' fortieth on Saturday the 7th, their anniversary dinner.");
  const titles = (await engine.structure(anniversary)).events.map((event) => event.title);
  assert.ok(!titles.some((title) => /birthday/i.test(title)), titles.join(' | '));
});

test('a newcomer’s visit: a deadline after "hiking trip" dates the task, not the trip; the overview names the plan, not the to-do again', async () => {
  const input = memo(
    [
      'Me: Hey Priya, thanks for having me over.',
      'Priya: Can you send me the photos from the hiking trip by Thursday?',
      "Me: Sure, I'll send them tomorrow night.",
      "Priya: And let's go to the climbing gym on Saturday, December 5 at 10am.",
      "Me: Sounds good, I'll book the climbing gym for the two of us.",
    ].join('\n'),
    { startedAt: '2026-12-01T18:00:00Z', timezone: 'UTC' },
  );
  const structure = await engine.structure(input);
  assert.ok(!structure.events.some((event) => /^Hiking Trip/.test(event.title)), JSON.stringify(structure.events));
  // "climbing gym" is not followed by "gym" again; "for the two of us" is reported as "them".
  assert.doesNotMatch(structure.overview, /climbing gym, gym\b/);
  assert.match(structure.overview, /for the two of them\b/);
  assert.match(structure.overview, /Climbing Gym with Priya is planned for Saturday, December 5\./);
});

test('a deadline with its date is an event ("The deadline is the fifteenth of October")', async () => {
  const { events } = await engine.structure(
    memo("I'm going to apply to the psychology master's. The deadline is the fifteenth of October."),
  );
  assert.equal(events.length, 1, JSON.stringify(events));
  assert.equal(events[0].title, 'Deadline');
  assert.equal(wallClock(events[0].start, 'America/New_York')?.slice(0, 10), '2026-10-15');
});

test('a date said first takes the event said just after it in the same turn ("Saturday the ninth. Mia’s birthday party.")', async () => {
  const party = await engine.structure(memo("Saturday the ninth. Mia's birthday party, at the park."));
  assert.equal(party.events.length, 1, JSON.stringify(party.events));
  assert.equal(party.events[0].title, 'Birthday Party');
  assert.match(party.events[0].description, /birthday party, at the park/);
  assert.equal(wallClock(party.events[0].start, 'America/New_York')?.slice(0, 10), '2026-05-09');
  const race = await engine.structure(memo("December sixth. It's my first marathon."));
  assert.equal(race.events[0]?.title, 'First Marathon', JSON.stringify(race.events));
});

test('the overview reports a to-do without the list topic it carries ("… (residence card)")', async () => {
  const { overview } = await engine.structure(
    memo(
      "Okay, errands. Two: residence card. It runs out in January, so I'll book the earliest slot at the immigration office by Friday.",
    ),
  );
  assert.match(overview, /book the earliest slot at the immigration office/);
  assert.ok(!overview.includes('(residence card)'), overview);
});

test('another speaker’s own trip ("I’m flying to Oslo on Monday for my sister’s wedding") is not the wearer’s event; one they are asked into is', async () => {
  const trip = await engine.structure(
    dialogue([
      ['SPEAKER_00', true, 'Can you send me the load calculations by Friday?'],
      ['SPEAKER_01', false, "Sure. Oh, and I'm flying to Oslo on Monday for my sister's wedding, so I'm out all week."],
      ['SPEAKER_00', true, 'Lucky you, have fun.'],
    ]),
  );
  assert.deepEqual(trip.events, []);
  const pickUp = await engine.structure(
    dialogue([
      ['SPEAKER_01', false, "I'm flying in on Monday the 9th. Can you pick me up from the airport?"],
      ['SPEAKER_00', true, 'Of course.'],
    ]),
  );
  assert.equal(pickUp.events.length, 1, JSON.stringify(pickUp.events));
});

test('a weekly habit ("pottery classes on Thursday evenings for about a year") is no dated event', async () => {
  const { events } = await engine.structure(
    memo(
      "I've been doing pottery classes on Thursday evenings for about a year. The kiln opening is on Saturday the 14th.",
    ),
  );
  assert.deepEqual(
    events.map((event) => event.title),
    ['Kiln Opening'],
  );
});

test('a title takes no words from a sentence said in another language, nor a form of address ("Sir", "Ma’am")', async () => {
  const input = dialogue([
    ['Pilar', false, 'Hola, buenos días, señor Ortega. ¿Qué tal, todo bien?'],
    ['Tomás', true, 'Buenos días, muy bien. So, the boiler again, sir.'],
    ['Pilar', false, 'The boiler in the flat on Calle Mayor? What is the boiler doing now?'],
    ['Tomás', true, 'The boiler pressure keeps dropping, and the radiators are cold by the evening.'],
    ['Pilar', false, 'I will send the technician on Thursday to check the boiler pressure, sir.'],
    ['Tomás', true, 'Gracias, muy amable. Thursday is fine.'],
  ]);
  const { title } = await engine.structure(input);
  assert.match(title, /boiler/i, title);
  assert.doesNotMatch(title, /buenos|días|qué|muy|gracias|\bsir\b/i, title);
});

test('an event without an event word takes no title from a transcriber’s note or a word such as "guys" or "money"', async () => {
  const input = dialogue([
    ['Agent', false, 'Let me look. [typing] So, tomorrow at one-forty via Paris, you arrive the same evening.'],
    ['Salma', true, 'That works. Tomorrow via Paris, then.'],
  ]);
  const { events } = await engine.structure(input);
  assert.ok(events.length > 0, 'an event');
  assert.ok(!events.some((event) => /typing/i.test(event.title)), JSON.stringify(events.map((event) => event.title)));
});

test('an appointment read out by a pharmacy system keeps its name and its time: "twenty past nine", "at 9:30 on Tuesday the 8th"', async () => {
  const at = async (said: string) => {
    const input = dialogue(
      [
        ['Pharmacist', false, said],
        ['Rowan', true, "Lovely, I'll be there."],
      ],
      { startedAt: '2026-11-28T10:00:00Z', timezone: 'UTC' },
    );
    return (await engine.structure(input)).events.map((event) => [event.title, wallClock(event.start, 'UTC')]);
  };
  assert.deepEqual(
    await at('The system has you down for a medication review on Tuesday the 8th at twenty past nine.'),
    [['Medication Review with the Pharmacist', '2026-12-08T09:20']],
  );
  assert.deepEqual(await at('Your medication review is at 9:30 on Tuesday the 8th.'), [
    ['Medication Review with the Pharmacist', '2026-12-08T09:30'],
  ]);
  assert.deepEqual(await at('Your appointment is on Friday at ten to six.'), [
    ['Appointment with the Pharmacist', '2026-12-04T17:50'],
  ]);
});
