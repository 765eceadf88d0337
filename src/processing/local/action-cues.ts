import { askedIfDone } from './action-asked.js';
import {
  assignWindows,
  type Candidate,
  type CueKind,
  type CueStrength,
  candidatesAt,
  DATED,
} from './action-clauses.js';
import { dueCandidates, MONEY_WORDS } from './action-due.js';
import { imperativeCandidates, memoImperatives } from './action-imperatives.js';
import type { Analysis, Sentence } from './analysis.js';
import { MEDICINE } from './memory-medicines.js';

export { assignWindows, type Candidate, type CueKind, type CueStrength } from './action-clauses.js';

interface Cue {
  pattern: RegExp;
  kind: CueKind;
  strength: CueStrength;
  impliedVerb?: string;
}

/** The implied verb of "I'll have the postmortem done by Wednesday": the result names the deliverable. */
export const RESULT_VERB = 'finish';
const RESULT_VERBS: Record<string, string> = {
  deployed: 'deploy',
  sent: 'send',
  fixed: 'fix',
  submitted: 'submit',
  booked: 'book',
  signed: 'sign',
  uploaded: 'upload',
  written: 'write',
  drafted: 'draft',
  printed: 'print',
  installed: 'install',
  delivered: 'deliver',
  reviewed: 'review',
  packed: 'pack',
  paid: 'pay',
};
/** The results a deliverable is promised in: finished ones, and those that name their own verb. */
const RESULTS = `done|finished|ready|completed|sorted|${Object.keys(RESULT_VERBS).join('|')}`;
const RESULT = new RegExp(`\\s+(${RESULTS})\\b`, 'i');

/** "the hotfix deployed" → ["deploy", "the hotfix"]; "a first draft of the poster" → ["finish", …]. */
export function resultTask(description: string): [verb: string, object: string] {
  const result = RESULT.exec(description);
  if (result === null) return [RESULT_VERB, description];
  const object = description.slice(0, result.index) + description.slice(result.index + result[0].length);
  return [RESULT_VERBS[result[1].toLowerCase()] ?? RESULT_VERB, object];
}

// "We need a deposit by Friday": money someone needs from the wearer is paid, not sent.
const MONEY_FIRST = new RegExp(`^(?:(?:a|an|the|your|my)\\s+)?(?:\\w+\\s+)?(?:${MONEY_WORDS})\\b`, 'i');

const SELF_CUES: Cue[] = [
  // "I'll have the postmortem done by Wednesday", "I'll have a first draft by the end of the month": a
  // deliverable promised with its result or its deadline ("I'll have the salmon" promises nothing).
  {
    pattern: new RegExp(
      `\\b(?:i'll|i will|i'm going to|i am going to|i'm gonna|i should) have\\s+(?=(?:the|a|an|my|our|your|this|that|these|those|it|them|all|everything)\\b[^,.;!?]{0,60}?\\s(?:${RESULTS}|by|before)\\b)`,
      'gi',
    ),
    kind: 'commitment',
    strength: 'strong',
    impliedVerb: RESULT_VERB,
  },
  // "You'll have the bank statements by Friday": the wearer promises the listener a delivery.
  {
    pattern:
      /\byou(?:'ll| will) (?:have|get|receive)\s+(?=(?:the|my|our|all|everything|those|these)\b[^,.;!?]{0,60}?\s(?:by|before|on|tomorrow|tonight|today|first thing)\b)/gi,
    kind: 'commitment',
    strength: 'strong',
    impliedVerb: 'send',
  },
  // "I said I'd get her three quotes by Friday", "I promised Mum I'd call": a promise reported is still owed.
  {
    pattern:
      /\b(?:i )?(?:said|told (?:him|her|them|\p{Lu}\p{Ll}+|my \p{Ll}+(?: \p{Lu}\p{Ll}+)?)|promised(?: (?:him|her|them|myself|\p{Lu}\p{Ll}+|my \p{Ll}+(?: \p{Lu}\p{Ll}+)?))?) (?:that )?(?:i'd|i would|i'll|i will)\s+/giu,
    kind: 'commitment',
    strength: 'strong',
  },
  {
    pattern:
      /\b(?:remind me to|don'?t (?:let me )?forget to|do not forget to|remember to|note to self\s*[:,-]?(?:\s*(?:i (?:need to|have to|must|should|gotta)|i'll|i will|to)\b)?|make a note to|set a reminder to|reminder(?: for me)?\s*[:,-]\s*(?:i need to|i have to|to)?)\s+/gi,
    kind: 'reminder',
    strength: 'strong',
  },
  {
    pattern:
      /\b(?:(?:i'll|i will) (?:(?:have|need) to )?|i (?:really |definitely |seriously |also |still |just |absolutely )?(?:need to|have to|must)|i've got to|i got to|i gotta|(?:i'm|i am) (?:(?:also|really|definitely|just|still|probably|actually|finally|totally) )?(?:going to|gonna)|i plan to|i'm planning to)\s*(?:(?:like|actually|um|uh|kind of|sort of),?\s+)*/gi,
    kind: 'commitment',
    strength: 'strong',
  },
  // "Someone has to collect Mum's cake on Saturday, and I suppose that's me": a need the wearer owns up to.
  {
    pattern:
      /\b(?:someone|somebody) (?:has to|needs to|must|has got to|'s got to|should)\s+(?=[^.!?]*\b(?:that's|that is|that'll be|that means|it's|it'll be) (?:me|yours truly|muggins)\b)/gi,
    kind: 'commitment',
    strength: 'strong',
  },
  // A memo drops the subject: "Need to call the insurance about the windscreen claim."
  {
    pattern: /(?:^|(?<=[,;:—–]\s))(?:need to|have to|gotta|got to|must)\s+/gi,
    kind: 'commitment',
    strength: 'strong',
  },
  {
    pattern:
      /\b(?:we need to|we have to|we've got to|we must|i (?:really |definitely |seriously |also |still |probably )?(?:should|ought to)|let me)\s+/gi,
    kind: 'commitment',
    strength: 'medium',
  },
  { pattern: /\b(?:we should|i want to|i'd like to|we'll|let's)\s+/gi, kind: 'commitment', strength: 'weak' },
  // In the wearer's own notes, what someone wants from them by a date is theirs to deliver ("Logbook —
  // depot wants copies of the logbook by Friday", "the client wants the safety report by Thursday").
  {
    pattern:
      /(?:^|(?<=[,;:—–]\s)|\b(?:the|my|our)\s)(?!i\b|we\b|you\b)[a-z][\w'-]*\s(?:wants|needs|expects)\s(?=(?:the|a|an|my|our|copies|both|all|those|these)\b[^,.;!?]{0,60}?\b(?:by|before|no later than)\s)/gi,
    kind: 'reminder',
    strength: 'medium',
    impliedVerb: 'send',
  },
  // The progressive with a future time is English's arranged plan ("Tomorrow I'm mailing the contract").
  {
    pattern: /\b(?:i'm|i am)\s+(?:(?:also|just|finally|definitely|still)\s+)?(?=(?!going\b|gonna\b)[a-z]+ing\b)/gi,
    kind: 'commitment',
    strength: 'planned',
  },
  // So is the simple present with one ("Tomorrow I renew the registration", "I call Dr. Sousa tomorrow").
  {
    pattern: /\bi\s+(?:(?:also|just|then|first)\s+)?(?=[a-z]+\s)/gi,
    kind: 'commitment',
    strength: 'planned',
  },
];

const OTHER_CUES: Cue[] = [
  // "Can you have the handover document done by the end of the month?": the deliverable asked for, by its result.
  {
    pattern: new RegExp(
      `\\b(?:can|could|would|will) you (?:also |please )?have\\s+(?=(?:the|a|an|my|our|your|this|that|these|those|it|them|all|everything)\\b[^,.;!?]{0,60}?\\s(?:${RESULTS})\\b)`,
      'gi',
    ),
    kind: 'request',
    strength: 'medium',
    impliedVerb: RESULT_VERB,
  },
  {
    pattern:
      /\b(?:(?:can|could|would|will) you(?: at least| maybe| perhaps| possibly)?|can u|if you could|if you can|(?:i'd|i would) (?:recommend|suggest)(?= \w+ing\b)|(?:he|she|they) (?:said|says) to|you'll want to|you may want to|try to|it(?:'d| would) be (?:good|great|best|ideal|helpful) (?:to|if you could)|i(?:'d|'ll| would| will)? (?:also |really |just |still |definitely )?(?:need|want|like) you to|make sure (?:you|to)|you (?:also |really |just |still |definitely )?(?:need to|have to|must|should)|you've got to|don'?t forget to|remember to|please|you'll (?:also )?need to|you will need to|i(?:'d| would)? (?:also )?(?:advise|recommend|suggest) (?:you to|that you)|you might want to|be sure to)\s+/gi,
    kind: 'request',
    strength: 'medium',
  },
  { pattern: /\b(?:we need to|we have to|we've got to|we must)\s+/gi, kind: 'commitment', strength: 'medium' },
  // "Sanna, you said you'd do the food plan again?": the wearer's own promise, said back to them.
  { pattern: /\byou said you(?:'d| would|'ll| will)\s+/gi, kind: 'request', strength: 'medium' },
  // "And the addio al nubilato… you organise it?": a task put to the wearer as a question.
  {
    pattern:
      /(?:^|(?<=[,.…—–]\s*)|(?<=\b(?:and|so)\s))you (?=(?:organi[sz]e|bring|do|book|send|make|handle|sort|take|call|pick up|get|buy|print|write|check|collect)\b[^?]{0,60}\?\s*$)/gi,
    kind: 'request',
    strength: 'medium',
  },
  // A prescription: "I'd like to start you on lisinopril" asks the wearer to take it.
  {
    pattern:
      /\b(?:(?:i'd like to|i want to|i'm going to|i'll|we'll|let's) (?:start|put|keep) you on|(?:i'm|i am|we're) (?:starting|putting|keeping) you on|(?:i'll|i will|i'm going to|we'll) (?:give|prescribe) you|(?:i'm|i am|we're) (?:giving|prescribing) you|(?:i'm|i am|we're) (?:also )?prescribing(?= (?!you\b|it\b|that\b|them\b|this\b)[a-z])|(?:i'll|i will|i'm going to) (?:also )?prescribe(?= (?!you\b|it\b|that\b|them\b|this\b)[a-z]))\s+/gi,
    kind: 'request',
    strength: 'medium',
    impliedVerb: 'take',
  },
  // "Cetirizine, one a day", "amoxicillin twice a day for a week": a medicine said with how often is taken.
  {
    pattern: new RegExp(
      `(?:^|(?<=[,.;:—–]\\s*)|(?<=\\b(?:and|then|so|try)\\s))(?=${MEDICINE.source},?\\s+(?:(?:one|two|three|\\d+)(?:\\s+(?:tablets?|pills?|puffs?|drops?|capsules?))?\\s+(?:a|per|every|each|at)\\s+(?:day|night|morning|evening|bedtime)|(?:once|twice|three times)\\s+a\\s+day))`,
      'giu',
    ),
    kind: 'request',
    strength: 'medium',
    impliedVerb: 'take',
  },
  // A referral asks the wearer to go: "I'm referring you to a nutritionist" → "See a nutritionist".
  {
    pattern:
      /\b(?:(?:i'm|i am|we're|we are) (?:also |just )?referring you|(?:i'll|i will|we'll|i'm going to|i'd like to) (?:also )?refer you) to\s+(?=(?:a|an|the|our|my|dr\.?|doctor)\s)/gi,
    kind: 'request',
    strength: 'medium',
    impliedVerb: 'see',
  },
  // "We'd like to see one full case study": what someone would like to see from the wearer, they send.
  {
    pattern:
      /\b(?:i|we)(?:'d| would) (?:also )?(?:like|love|want) to (?:see|have|get)\s+(?=(?:a|an|the|one|two|three|some|your|both|all)\s)/gi,
    kind: 'request',
    strength: 'medium',
    impliedVerb: 'send',
  },
  // What someone wants by a date, said to the wearer, is theirs to send ("I want the revised chapter by November
  // second", "The board wants the Q2 forecast by Friday"); without a deadline a want asks for nothing.
  {
    pattern:
      /\b(?:i|we|they|he|she|the (?:board|client|office|bank|school|clinic|committee|editor|journal|team|landlord|agency|council|funder|publisher))(?:'d| would)? (?:also |still |really )?(?:want|wants|like|expect|expects) (?=(?:your|the|a|an|both|all|those|these|his|her|their)\s[^,.;!?]{0,60}?\b(?:by|before|no later than)\s)/gi,
    kind: 'request',
    strength: 'medium',
    impliedVerb: 'send',
  },
  // Someone's need of a thing, said to the wearer, asks the wearer to send it ("I need the signed form by Friday").
  {
    pattern:
      /\b(?:i|we|they|the (?:office|bank|school|clinic|insurer|insurance|landlord|agency|council|embassy|consulate|lender|university|registry))(?:'ll| will)? (?:also |still |just )?(?:need|needs) (?!(?:your|the|a|an) (?:help|support|attention|patience|time|advice|opinion|input|blessing|honesty|trust)\b)(?=(?:your|the|a|an|both|all|those|these|his|her|their)\s|(?:[a-z]+ ){1,2}(?:of|from|for|showing)\b)/gi,
    kind: 'request',
    strength: 'medium',
    impliedVerb: 'send',
  },
];

function cuesFor(sentence: Sentence, analysis: Analysis): Cue[] {
  if (!analysis.dialogue || sentence.isUser) return SELF_CUES;
  return OTHER_CUES;
}

function candidatesFromCues(sentence: Sentence, sentenceIndex: number, cues: Cue[]): Candidate[] {
  const found: Candidate[] = [];
  for (const cue of cues) {
    // A plan is one only with a date: without a time word the sentence holds none.
    if (cue.strength === 'planned' && !DATED.test(sentence.text)) continue;
    for (const match of sentence.text.matchAll(cue.pattern)) {
      const cueStart = match.index ?? 0;
      const cueEnd = cueStart + match[0].length;
      if (found.some((other) => cueEnd > other.clauseStart - 1 && cueEnd <= other.clauseEnd)) continue;
      const cueAt = {
        sentence,
        sentenceIndex,
        kind: cue.kind,
        strength: cue.strength,
        cueStart,
        impliedVerb: cue.impliedVerb,
      };
      for (const candidate of candidatesAt(cueAt, cueEnd))
        found.push(
          candidate.impliedVerb === 'send' && MONEY_FIRST.test(candidate.clause)
            ? { ...candidate, impliedVerb: 'pay' }
            : candidate,
        );
    }
  }
  return assignWindows(found.filter((candidate) => candidate.clause !== ''));
}

/** Someone's requests can only be the wearer's tasks when the wearer takes part in the conversation. */
function wearerListens(analysis: Analysis): boolean {
  return analysis.attribution !== 'absent';
}

function withImperatives(plans: Candidate[], sentence: Sentence, sentenceIndex: number): Candidate[] {
  const imperatives = memoImperatives(sentence, sentenceIndex);
  if (imperatives.length === 0) return plans;
  const inside = (plan: Candidate) =>
    imperatives.some((item) => plan.cueStart >= item.clauseStart && plan.cueStart < item.clauseEnd);
  return assignWindows([...imperatives, ...plans.filter((plan) => !inside(plan))]);
}

// Speech has a few tasks a sentence; "I'll send it by Friday and I'll send it…" has thousands, and each
// is dated and described against its whole sentence (quadratic), so only the first few are read.
const MAX_CUES_PER_SENTENCE = 16;

/** Every cue in the conversation, in order of speech. */
export function findCandidates(analysis: Analysis): Candidate[] {
  const candidates: Candidate[] = [];
  analysis.sentences.forEach((sentence, index) => {
    const before = candidates.length;
    if (analysis.dialogue) candidates.push(...assignWindows(askedIfDone(analysis, sentence, index)));
    const addressed = !sentence.isUser && wearerListens(analysis);
    const due =
      sentence.isUser || addressed ? dueCandidates(sentence, index, sentence.isUser ? 'reminder' : 'request') : [];
    const fromCues = assignWindows([...candidatesFromCues(sentence, index, cuesFor(sentence, analysis)), ...due]);
    // A plan in the present is the weakest cue: it does not hide the imperative opening the sentence.
    const onlyPlans = fromCues.every((candidate) => candidate.strength === 'planned');
    if (!analysis.dialogue && onlyPlans) candidates.push(...withImperatives(fromCues, sentence, index));
    else if (fromCues.length > 0) candidates.push(...fromCues);
    // Another speaker's imperative is addressed to the listener: in a wearer's recording, the wearer.
    else if (!sentence.isUser && wearerListens(analysis))
      candidates.push(...imperativeCandidates(sentence, index, true));
    if (candidates.length - before > MAX_CUES_PER_SENTENCE) candidates.length = before + MAX_CUES_PER_SENTENCE;
  });
  return candidates;
}
