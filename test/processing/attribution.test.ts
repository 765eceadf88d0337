import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TranscriptInput } from '../../src/processing/engine.js';
import { analysisOf } from '../../src/processing/local/analysis.js';
import { createLocalEngine } from '../../src/processing/local/index.js';
import { stripSpeakerLabels } from '../../src/processing/local/text.js';
import { dialogue, memo, wallClock } from './inputs.js';

const engine = createLocalEngine();

/** "speaker*" for the wearer's turns, "speaker" for others'. */
function who(input: TranscriptInput): string[] {
  return analysisOf(input).turns.map((turn) => `${turn.speaker}${turn.isUser ? '*' : ''}`);
}

async function items(input: TranscriptInput): Promise<Array<[string, string | null]>> {
  const extracted = await engine.extractActionItems(input, []);
  return extracted.map((item) => [item.description, wallClock(item.dueAt, input.timezone)]);
}

const COMMITMENT = 'I will send the quarterly report to Tom by Friday.';

test('a Speaker 0 line gives the same action items as the same words unlabelled', async () => {
  const expected = await items(memo(COMMITMENT));
  assert.equal(expected.length, 1);
  for (const label of ['Speaker 0', 'SPEAKER_00', 'Me', 'User', 'Sam']) {
    assert.deepEqual(await items(memo(`${label}: ${COMMITMENT}`)), expected, label);
  }
});

test('Speaker N and SPEAKER_NN texts: speaker 0 is the wearer', () => {
  assert.deepEqual(who(memo('Speaker 1: Can you call the vet?\nSpeaker 0: Sure.')), ['Speaker 1', 'Speaker 0*']);
  assert.deepEqual(who(memo('SPEAKER_00: Hi.\nSPEAKER_01: Hello.')), ['SPEAKER_00*', 'SPEAKER_01']);
});

test("a request another speaker makes of the wearer becomes the wearer's task", async () => {
  const input = memo('Speaker 1: Could you send the signed lease to the landlord by Monday?\nSpeaker 0: Will do.');
  assert.deepEqual(
    (await items(input)).map(([description]) => description),
    ['Send the signed lease to the landlord'],
  );
});

test("text labelled with names: the user's name, User or Me is the wearer; otherwise nobody", () => {
  assert.deepEqual(who(memo('Dana: Lunch?\nSam: Sure.', { userName: 'Sam Keller' })), ['Dana', 'Sam*']);
  assert.deepEqual(who(memo('Dana: Lunch?\nMe: Sure.')), ['Dana', 'Me*']);
  assert.deepEqual(who(memo('Dana: Lunch?\nLee: Sure.')), ['Dana', 'Lee']);
  assert.equal(analysisOf(memo('Dana: Lunch?\nLee: Sure.')).attribution, 'absent');
});

test('the reference rendering: times, blank lines between turns, the wearer by name and others as Speaker N', () => {
  const text = [
    '[0:00:00 - 0:00:06] Sam: I grew up in Porto,',
    'on the coast.',
    '',
    '[0:00:06 - 0:00:09] Speaker 0: Nice.',
    '',
    '[0:00:09 - 0:00:12] Sam: Yes.',
  ].join('\n');
  const input = memo(text);
  assert.deepEqual(who(input), ['Sam*', 'Speaker 0', 'Sam*']);
  assert.equal(analysisOf(input).turns[0]?.text, 'I grew up in Porto, on the coast.');
  assert.equal(stripSpeakerLabels(text), 'I grew up in Porto, on the coast.\nNice.\nYes.');
});

test('segments: is_user marks the wearer; without it speaker 0 is the wearer', () => {
  const lines: Array<[string, boolean, string]> = [
    ['SPEAKER_01', false, 'Can you book the dentist?'],
    ['SPEAKER_00', false, 'Yes.'],
  ];
  assert.deepEqual(who(dialogue(lines)), ['SPEAKER_01', 'SPEAKER_00*']);
  assert.equal(analysisOf(dialogue(lines)).attribution, 'convention');
  const marked: Array<[string, boolean, string]> = [
    ['SPEAKER_00', false, 'Can you book the dentist?'],
    ['SPEAKER_01', true, 'Yes.'],
  ];
  assert.deepEqual(who(dialogue(marked)), ['SPEAKER_00', 'SPEAKER_01*']);
});

test('unlabelled memos are all the wearer; a lone heading such as "Reminder:" is not a speaker', () => {
  assert.deepEqual(who(memo('Reminder: call mom tomorrow')), ['Sam*']);
  assert.equal(analysisOf(memo('Buy milk.\nCall mom.')).dialogue, false);
});

test('one voice under another name or number is overheard: the wearer is absent', () => {
  for (const text of [
    'Speaker 1: The train is delayed again.\nSpeaker 1: Call me back.',
    'Deborah: Yes.\nDeborah: No.',
  ]) {
    const analysis = analysisOf(memo(text));
    assert.equal(analysis.attribution, 'absent', text);
    assert.ok(
      analysis.turns.every((turn) => !turn.isUser),
      'analysis.turns.every((turn) => !turn.isUser)',
    );
  }
});

test('numbered voices: the one others call by the user’s name, or that introduces itself by it, is the wearer', () => {
  const called = memo(
    'SPEAKER_00: Come on in, Chioma, have a seat.\nSPEAKER_01: Thanks. It is sensitive on the lower left.\nSPEAKER_00: Let us have a look.',
    { userName: 'Chioma' },
  );
  assert.deepEqual(who(called), ['SPEAKER_00', 'SPEAKER_01*', 'SPEAKER_00']);
  const introduced = memo(
    "Speaker 0: Good morning, Garage Lindqvist.\nSpeaker 1: Hi, it's Pavel, I left the Skoda with you yesterday.\nSpeaker 0: Right, the brakes.",
    { userName: 'Pavel Novak' },
  );
  assert.deepEqual(who(introduced), ['Speaker 0', 'Speaker 1*', 'Speaker 0']);
  // "Is this Pavel?" is said to Pavel: the voice that answers it is the wearer's.
  const asked = memo('Speaker 0: Hello, is this Pavel?\nSpeaker 1: Speaking.', { userName: 'Pavel' });
  assert.deepEqual(who(asked), ['Speaker 0', 'Speaker 1*']);
  // A voice that gives another name as its own is someone else; with two voices, the other is the wearer.
  const caller = memo(
    "SPEAKER_00: Hello, it's Schreiber from the property office, you left a message.\nSPEAKER_01: Yes, thanks for calling back, the boiler is off.",
    { userName: 'Marek' },
  );
  assert.deepEqual(who(caller), ['SPEAKER_00', 'SPEAKER_01*']);
  // A name given at a counter is the speaker's own: "… for Nair. Priya Nair." is the wearer speaking.
  const counter = memo(
    "Speaker 0: Hi, I'm collecting a prescription for Nair. Priya Nair.\nSpeaker 1: Date of birth?\nSpeaker 0: Third of June, 1988.",
    { userName: 'Priya Nair' },
  );
  assert.deepEqual(who(counter), ['Speaker 0*', 'Speaker 1', 'Speaker 0*']);
  const booked = memo(
    'Speaker 0: Hello, table for two?\nSpeaker 1: Yes, a booking under Garcia.\nSpeaker 0: This way.',
    { userName: 'Lucia Garcia' },
  );
  assert.deepEqual(who(booked), ['Speaker 0', 'Speaker 1*', 'Speaker 0']);
  const silent = memo('Speaker 0: I will call the bank.\nSpeaker 1: Good idea.', { userName: 'Pavel' });
  assert.deepEqual(who(silent), ['Speaker 0*', 'Speaker 1']);
});

test('a name said to several people at once credits none of them; the one answering it alone is the wearer', () => {
  const adviser = memo(
    [
      'SPEAKER_00: So, Patricia, Dale, thanks for coming in.',
      'SPEAKER_01: Good, I cannot sleep thinking about it.',
      'SPEAKER_00: Patricia, you are still planning to retire next June?',
      'SPEAKER_02: Next June, yes. Thirty-one years teaching fourth grade.',
    ].join('\n'),
    { userName: 'Patricia' },
  );
  assert.deepEqual(who(adviser), ['SPEAKER_00', 'SPEAKER_01', 'SPEAKER_00', 'SPEAKER_02*']);
});

test('the family name said with a title is the user’s name too: the voice that says it is someone else', () => {
  const visit = memo(
    [
      'Speaker 0: Morning, Mr Lindqvist, thanks for wearing the monitor.',
      'Speaker 1: Okay. What now?',
      'Speaker 0: I am starting you on apixaban, five milligrams twice a day.',
    ].join('\n'),
    { userName: 'Erik Lindqvist' },
  );
  assert.deepEqual(who(visit), ['Speaker 0', 'Speaker 1*', 'Speaker 0']);
});

test('the user’s name with an honorific joined to it ("Ji-woo-ssi", "Rahul-ji") is still the name', () => {
  const booking = memo(
    [
      'SPEAKER_00: So, Ji-woo-ssi, you said central Vietnam?',
      'SPEAKER_01: Yes, Da Nang and Hoi An.',
      'SPEAKER_00: Great choice, seven nights then.',
    ].join('\n'),
    { userName: 'Ji-woo' },
  );
  assert.deepEqual(who(booking), ['SPEAKER_00', 'SPEAKER_01*', 'SPEAKER_00']);
  const site = memo(['Speaker 0: Rahul-ji, the slab is ready.', 'Speaker 1: Good, I will come at four.'].join('\n'), {
    userName: 'Rahul Verma',
  });
  assert.deepEqual(who(site), ['Speaker 0', 'Speaker 1*']);
});

test('a conversation pasted on one line is read turn by turn; a memo of headings is not', async () => {
  const pasted = memo(
    'Manager: Can you get the quarterly report over to me by Friday? Me: Sure, will do. Manager: Great, and Priya will handle the client demo.',
  );
  assert.deepEqual(who(pasted), ['Manager', 'Me*', 'Manager']);
  const [[description, due]] = await items(pasted);
  assert.match(description, /quarterly report/);
  assert.equal(due, '2026-03-06T23:59');
  // A title before a name is no sentence end: "Dr. Lee" stays one label.
  const clinic = memo('Dr. Lee: Your pressure is high. Me: Oh no. Dr. Lee: We will recheck it in May. Me: Okay.');
  assert.deepEqual(who(clinic), ['Dr. Lee', 'Me*', 'Dr. Lee', 'Me*']);
  // Headings that never answer one another stay the wearer's memo.
  assert.deepEqual(who(memo('Note to self: renew the permit. Reminder: call mom. Todo: buy milk.')), ['Sam*']);
});

test('a first name with a surname given to a service is the speaker’s own; a name said of someone credits no reply', () => {
  // Reserving, collecting or giving a date of birth under the user's full name: the speaker is the wearer,
  // though only the first name was known.
  const rental = memo('SPEAKER_01: Next, please.\nSPEAKER_00: Hi, it’s under Ines Okafor.\nSPEAKER_01: Got it.', {
    userName: 'Ines',
  });
  assert.deepEqual(who(rental), ['SPEAKER_01', 'SPEAKER_00*', 'SPEAKER_01']);
  const scan = dialogue(
    [
      ['SPEAKER_01', false, 'Imaging desk, this is Greta.'],
      ['SPEAKER_00', false, 'Hi Greta, I need to move a scan. It is for my wrist, Tomas Berg, date of birth May 2.'],
      ['SPEAKER_01', false, 'Found it.'],
    ],
    { userName: 'Tomas' },
  );
  assert.deepEqual(who(scan), ['SPEAKER_01', 'SPEAKER_00*', 'SPEAKER_01']);
  // "so Femi can merge it", "Femi's laptop": said of the user, so neither speaker is the user, and the
  // next voice is not credited with the name; "It's High Court" opens a line without naming anyone.
  const group = memo(
    [
      "SPEAKER_01: Is this recording? Femi's laptop is on.",
      "SPEAKER_00: It's High Court, so persuasive only.",
      'SPEAKER_02: I will send my part Sunday so Femi can merge it.',
      'SPEAKER_01: Fine.',
    ].join('\n'),
    { userName: 'Femi' },
  );
  assert.deepEqual(who(group), ['SPEAKER_01', 'SPEAKER_00*', 'SPEAKER_02', 'SPEAKER_01']);
  // "I'm Lin, this is Wei" shows someone else: the voice that says it is not Wei's.
  const shown = memo("Speaker 1: Come in.\nSpeaker 0: Hi, I'm Lin, this is Wei.\nSpeaker 1: Welcome.", {
    userName: 'Wei',
  });
  assert.notEqual(who(shown)[1], 'Speaker 0*');
});

test('a full name opening a line answers a counter’s question: that voice is the user’s', () => {
  const counter = memo(
    'SPEAKER_01: Hi, name and date of birth?\nSPEAKER_00: Lerato Dube, fourth of May ninety.\nSPEAKER_01: Still on the same dose?',
    { userName: 'Lerato' },
  );
  assert.deepEqual(who(counter), ['SPEAKER_01', 'SPEAKER_00*', 'SPEAKER_01']);
  const desk = memo(
    'SPEAKER_01: Next, please.\nSPEAKER_00: I missed my connection. Haddad, Omar Haddad.\nSPEAKER_01: Let me check, Mr. Haddad.',
    { userName: 'Omar' },
  );
  assert.deepEqual(who(desk), ['SPEAKER_01', 'SPEAKER_00*', 'SPEAKER_01']);
  // Said to someone as a question, the full name is theirs, not the speaker's.
  const called = memo('Speaker 0: Lerato Dube?\nSpeaker 1: That’s me.', { userName: 'Lerato' });
  assert.deepEqual(who(called), ['Speaker 0', 'Speaker 1*']);
});

test('a full name given after a greeting ("Hi, yes, Ana Restrepo, two nights.") is the wearer’s own', () => {
  const input = dialogue(
    [
      ['SPEAKER_01', false, 'Welcome. Check-in? Your name please?'],
      ['SPEAKER_00', false, "Hi, yes, Ana Restrepo, two nights. I'm allergic to shellfish, seriously allergic."],
      ['SPEAKER_01', false, 'I understand. I will tell the kitchen.'],
    ],
    { userName: 'Ana' },
  );
  const analysis = analysisOf(input);
  assert.deepEqual(
    analysis.turns.map((turn) => [turn.speaker, turn.isUser]),
    [
      ['SPEAKER_01', false],
      ['SPEAKER_00', true],
      ['SPEAKER_01', false],
    ],
  );
});
