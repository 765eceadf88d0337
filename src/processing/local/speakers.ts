import { escapeRegExp } from './text.js';

/**
 * Who the wearer is. Every input form names speakers differently: segments may carry `is_user`,
 * diarized segments only `SPEAKER_00`…, texts carry `Speaker N:`, `SPEAKER_NN:`, names, or the
 * reference rendering (the wearer under their own name, others as `Speaker N`), and memos carry nothing.
 */

/** How the wearer's lines were recognised; `absent` means the wearer does not speak. */
export type Attribution = 'marked' | 'named' | 'addressed' | 'convention' | 'sole' | 'unlabelled' | 'absent';

/** Labels by which a transcript names its wearer, besides the user's own name. */
const WEARER_WORDS = new Set(['user', 'me', 'myself', 'i', 'self', 'wearer', 'owner', 'you (me)']);
// "Sam (me)", "Sam - user": a label that tags itself as the wearer.
const SELF_TAG = /\((?:me|user|you|wearer|self)\)|[-–]\s*(?:me|user)$/i;
const NUMBERED = /^(?:speaker)?[\s_-]*(\d{1,3})$/i;

/** The number of a diarization label ("SPEAKER_00", "Speaker 1", "2"), or null for a name. */
export function speakerNumber(label: string): number | null {
  const match = NUMBERED.exec(label.trim());
  return match === null ? null : Number(match[1]);
}

function fold(label: string): string {
  return label.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** The lower-case labels that name the wearer: generic words plus the user's name and its first word. */
export function wearerLabels(userName: string): Set<string> {
  const names = new Set(WEARER_WORDS);
  const name = fold(userName);
  if (name !== '' && speakerNumber(name) === null) {
    names.add(name);
    names.add(name.split(' ')[0] ?? name);
  }
  return names;
}

function namesWearer(label: string, names: ReadonlySet<string>): boolean {
  const folded = fold(label);
  return names.has(folded) || SELF_TAG.test(folded) || names.has(folded.split(' ')[0] ?? '');
}

export interface WearerRule {
  isWearer: (label: string) => boolean;
  attribution: Attribution;
}

export interface LabelledLine {
  label: string;
  text: string;
}

// The user's name (marked \uE000) said beside another: "So, Patricia, Dale, thanks for coming in".
const TOGETHER = /\uE000,? (?:and )?\p{Lu}\p{Ll}+\b|\b\p{Lu}\p{Ll}+,? (?:and )?\uE000/u;

// A speaker giving a name as their own: "I'm Rania", "my name is Ifeoma", "Hello, it's Schreiber". A bare
// "It's …" opening a line names the caller only when the name stands alone ("It's Tanya.", "It's Tanya
// from radiology"), not in "It's High Court" or "It's Monday".
const OTHER_INTRODUCTION =
  /(?:\b(?:I'm|I am|[Mm]y name is|[Nn]ame's) (\p{Lu}\p{Ll}+)\b|(?:^|\b(?:[Hh]i|[Hh]ello|[Hh]ey|[Mm]orning|[Aa]fternoon|[Ee]vening)[,!]?)\s*(?:[Ii]t's|[Tt]his is) (?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December)\b)(\p{Lu}\p{Ll}+)(?=\s*(?:[,.!?]|$|from\b|here\b|speaking\b|calling\b)))/u;
// Where a name is given to a service as one's own: a booking, a pick-up, a claim, an account.
const SERVICE =
  'collecting|picking up|pick up|booked|booking|reservation|appointment|prescription|repeat|order|parcel|package|claim|account|policy|date of birth|DOB|checking in|check in';
const SERVICE_WORDS = new RegExp(`\\b(?:${SERVICE})\\b`, 'i');

/**
 * The numbered voice the words show to be the user's: people name themselves only to introduce
 * themselves ("Hi, it's Priya from accounts"), and otherwise say a name to or about someone else. So a
 * voice that introduces itself by the user's first name is theirs, a voice that says it otherwise is
 * not, and the voice that answers it likely is. Null when the words do not tell.
 */
function voiceNamedInWords(
  lines: ReadonlyArray<LabelledLine>,
  labels: ReadonlyArray<string>,
  userName: string,
): string | null {
  const first = fold(userName).split(' ')[0] ?? '';
  if (first.length < 2 || WEARER_WORDS.has(first) || speakerNumber(first) !== null) return null;
  // The family name counts when said with a title ("Morning, Mr Lindqvist"), as a service addresses a client.
  const parts = fold(userName).split(' ');
  const last = parts.length > 1 ? (parts.at(-1) ?? '') : '';
  const titled = last.length > 1 ? `|(?:mr|mrs|ms|miss|mx|dr|doctor|professor)\\.? ${escapeRegExp(last)}` : '';
  // "Ji-woo-ssi", "Tanaka-san", "Rahul-ji": an honorific joined to the name is still the name.
  const name = `(?:${escapeRegExp(first)}(?:-(?:ssi|nim|san|sama|kun|chan|sensei|ji|jaan|jan|bhai|didi|ya))?${titled})`;
  // "Femi's thing is on": a possessive says the name too.
  const said = new RegExp(`(?<![\\p{L}'-])${name}(?![\\p{L}-])(?!'(?!s(?!\\p{L})))`, 'iu');
  // "Hi Tanya, …", "Fatima, welcome", "Thanks, Dev.": the name said to someone, not of them.
  const vocative = new RegExp(
    `(?:^|[.!?]\\s+)(?:(?:hi|hey|hello|thanks|thank you|okay|ok|so|right|yes|yeah|no|morning|good morning|bye|welcome|sorry|and|well|oh)[,!]?\\s+)*${name}\\s*[,!?.:]|,\\s*${name}\\s*(?:[,.!?]|$)`,
    'iu',
  );
  const introduction = new RegExp(
    `\\b(?:it's|it is|this is|i'm|i am|my name is|name's|call me) ${name}\\b|^${name} (?:here|speaking)\\b`,
    'i',
  );
  // "I'm collecting a prescription for Nair. Priya Nair.": a name given to a counter is one's own.
  const fullName = `${escapeRegExp(first)}${last === '' ? '' : `(?: ${escapeRegExp(last)})?`}`;
  const given = new RegExp(
    `(?:^|[.!?]\\s+)${fullName}[.!]?\\s*$|\\b(?:${SERVICE})\\b[^.?!]{0,40}\\b(?:for|under) (?:${escapeRegExp(first)}${last === '' ? '' : `|${escapeRegExp(last)}`})\\b`,
    'i',
  );
  // "It's under Mei Lin", "Chen. Mei Chen. Date of birth…", "I'm collecting my repeat, Thandiwe Mokoena":
  // the first name with a surname, said to a service, is the speaker's own even when the surname is not known.
  const surnamed = new RegExp(`(?<![\\p{L}'-])${escapeRegExp(first)} \\p{Lu}[\\p{L}'-]+`, 'iu');
  // "Thandiwe Nkosi, twelve March ninety-one." opening a line answers "Name and date of birth?".
  // So does "Haddad, Omar Haddad." ending a line: a full name said on its own.
  // "Hi, yes, Ana Restrepo, two nights.": a greeting or a yes may come first.
  const lead = '(?:(?:hi|hello|hey|yes|yeah|yep|sure|okay|ok|um|uh|morning|good morning|good afternoon)[,!.]?\\s+)*';
  const answered = new RegExp(`^${lead}${surnamed.source}(?:[,.]|$)|(?:^|[.!?,]\\s+)${surnamed.source}[.!]?$`, 'iu');
  const givenToService = (text: string) =>
    (surnamed.test(text) && (SERVICE_WORDS.test(text) || /\bunder\s+\S+\s+\S+/i.test(text))) ||
    (answered.test(text.trim()) && !text.trim().endsWith('?'));
  const asked = new RegExp(`\\b(?:is this|are you|is that) ${name}\\b|${name}\\s*\\?`, 'i');
  const saidAll = new RegExp(said.source, 'giu');
  const score = new Map(labels.map((label) => [label, 0]));
  const add = (label: string, points: number) => score.set(label, (score.get(label) ?? 0) + points);
  lines.forEach((line, index) => {
    // "Hello, it's Schreiber from the Hausverwaltung", "I'm Rania, I lead design": another name of one's own.
    const other = OTHER_INTRODUCTION.exec(line.text);
    const own = other?.[1] ?? other?.[2];
    const introducesSelf = own !== undefined && fold(own) !== first;
    if (introducesSelf && !said.test(line.text)) add(line.label, -2);
    if ((given.test(line.text) || givenToService(line.text)) && !asked.test(line.text)) {
      add(line.label, 2);
      return;
    }
    if (!said.test(line.text)) return;
    // "I'm Lin, this is Wei": one's own name given, the user's is someone shown.
    if (introduction.test(line.text) && !asked.test(line.text) && !introducesSelf) {
      add(line.label, 2);
      return;
    }
    add(line.label, -1);
    // Whoever speaks next is most likely the one the name was said to, unless it was said to several
    // people at once ("So, Patricia, Dale, thanks for coming in").
    if (TOGETHER.test(line.text.replace(saidAll, '\uE000')) || !vocative.test(line.text)) return;
    const reply = lines.slice(index + 1).find((next) => next.label !== line.label);
    if (reply !== undefined) add(reply.label, 1);
  });
  const ranked = [...score.entries()].sort((a, b) => b[1] - a[1]);
  const [best, next] = ranked;
  if (best === undefined || (next !== undefined && next[1] === best[1])) return null;
  // Every other voice shown to be someone else leaves the wearer's.
  const othersRuledOut = ranked.slice(1).every(([, points]) => points < 0);
  return best[1] >= 1 || (best[1] >= 0 && othersRuledOut) ? best[0] : null;
}

/**
 * Decides from the speaker labels which of them is the wearer: a label naming the user; else a
 * numbered voice the words show to be the user's (see voiceNamedInWords); else, by the convention of
 * wearable diarization, speaker 0; else, with one unnamed voice only, that voice; else (names or
 * numbers, none the user's nor 0) nobody — the wearer only listened.
 */
export function wearerAmong(lines: ReadonlyArray<LabelledLine>, userName: string): WearerRule {
  const names = wearerLabels(userName);
  const distinct = [...new Set(lines.map((line) => line.label.trim()))];
  if (distinct.some((label) => namesWearer(label, names))) {
    return { isWearer: (label) => namesWearer(label, names), attribution: 'named' };
  }
  const numbered = distinct.filter((label) => speakerNumber(label) !== null);
  if (numbered.length > 1 && numbered.length === distinct.length) {
    const voice = voiceNamedInWords(lines, numbered, userName);
    if (voice !== null) return { isWearer: (label) => label.trim() === voice, attribution: 'addressed' };
  }
  if (distinct.some((label) => speakerNumber(label) === 0)) {
    return { isWearer: (label) => speakerNumber(label) === 0, attribution: 'convention' };
  }
  // One voice without any label to go by (an empty or "unknown" speaker) is the wearer's own recording;
  // one voice under another name or number ("Speaker 1", "Deborah") is someone overheard.
  if (distinct.length === 1 && /^(?:|unknown|speaker)$/i.test(distinct[0] ?? '')) {
    return { isWearer: () => true, attribution: 'sole' };
  }
  return { isWearer: () => false, attribution: 'absent' };
}
