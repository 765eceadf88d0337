import type { Analysis } from './analysis.js';
import { isBroadcast } from './broadcast.js';
import type { RuleDecision } from './relevance.js';

const DIARIZED_LABEL = /^\s*speaker[\s_-]*(\d+)\s*$/i;

/**
 * A lone labelled speaker who is not the wearer: another diarized speaker than 0 (the wearer by the
 * convention of wearable diarization), or a name that is not the user's. One side of a stranger's
 * phone call, overheard.
 */
function loneOtherSpeaker(analysis: Analysis, userName: string): boolean {
  if (analysis.attribution !== 'sole') return false;
  const label = analysis.turns[0]?.speaker ?? '';
  const diarized = DIARIZED_LABEL.exec(label);
  if (diarized !== null) return Number(diarized[1]) !== 0;
  const name = label.trim().toLowerCase();
  return name !== '' && !['user', 'me', userName.trim().toLowerCase()].includes(name);
}

/**
 * The tier before the SPEC research §3.2 rules: a recording in which the wearer never speaks
 * (background media, someone else's call) is not the wearer's conversation, whatever its length.
 * Broadcast register is checked by text wherever no explicit is_user mark says the wearer spoke,
 * since diarization alone makes the television speaker 0.
 */
export function decideByPresence(analysis: Analysis, userName: string, text: string): RuleDecision {
  if (analysis.turns.length === 0) return { verdict: 'undecided', reason: 'ambiguous' };
  if (analysis.attribution === 'absent' || loneOtherSpeaker(analysis, userName)) {
    return { verdict: 'discard', reason: 'wearer_absent' };
  }
  if (analysis.attribution !== 'marked' && isBroadcast(text)) return { verdict: 'discard', reason: 'background_media' };
  return { verdict: 'undecided', reason: 'ambiguous' };
}
