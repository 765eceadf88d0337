/**
 * Who the wearer is. Every input form names speakers differently: segments may carry `is_user`,
 * diarized segments only `SPEAKER_00`…, texts carry `Speaker N:`, `SPEAKER_NN:`, names, or the
 * reference rendering (the wearer under their own name, others as `Speaker N`), and memos carry nothing.
 */

/** How the wearer's lines were recognised; `absent` means the wearer does not speak. */
export type Attribution = 'marked' | 'named' | 'convention' | 'sole' | 'unlabelled' | 'absent';

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

/**
 * Decides from the distinct speaker labels which of them is the wearer: a label naming the user; else,
 * by the convention of wearable diarization, speaker 0; else, with one unnamed voice only, that voice;
 * else (names or numbers, none the user's nor 0) nobody — the wearer only listened.
 */
export function wearerAmong(labels: ReadonlyArray<string>, userName: string): WearerRule {
  const names = wearerLabels(userName);
  const distinct = [...new Set(labels.map((label) => label.trim()))];
  if (distinct.some((label) => namesWearer(label, names))) {
    return { isWearer: (label) => namesWearer(label, names), attribution: 'named' };
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
