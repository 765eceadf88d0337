/**
 * The register of broadcast media: a programme addressing an audience, an advert, live sports
 * commentary. Recorded by a wearable, these are background sound, not the wearer's conversation.
 * The markers are the genre's conventions (hand-offs, calls to action, play-by-play), not topics.
 */

/** A programme framing itself for listeners: hand-offs, teasers, sponsorship, sign-offs. */
const PROGRAMME = [
  /\bwelcome back to\b/,
  /\byou'?re (?:listening|watching|tuned) (?:to|in)\b/,
  /\bstay (?:tuned|with us)\b/,
  /\b(?:after|before) (?:the|this|a) (?:short |quick )?break\b|\bdon'?t go anywhere\b|\b(?:be|we'll be) right back\b/,
  /\b(?:joining|with) (?:me|us) (?:now|today|in the studio|on the (?:show|line))\b/,
  /\bcoming up (?:next|after|later|on|this)\b|\bcoming up,/,
  // Not "did the crematorium get back to you?".
  /(?<!\b(?:get|gets|got|getting|come|came|coming|write|call|ring|report|reply|respond|go|going|went|head) )\b(?:over|back) to you\b/,
  /\bthat'?s (?:the|all the) (?:news|latest|headlines|weather|sport)\b/,
  /\b(?:from|in) the (?:newsroom|studio)\b/,
  /\b(?:brought to you|sponsored) by\b/,
  /\b(?:this|today'?s|next) episode\b|\bon (?:today'?s|tonight'?s) (?:show|programme|program)\b/,
  /\bour (?:listeners|viewers|audience)\b/,
  /\blet'?s (?:check|look at) the (?:roads|traffic|weather)\b|\b(?:traffic|weather|news|sports) update\b/,
  // A traffic or weather report: "right lane blocked, expect delays", "fourteen degrees at the airport".
  /\bexpect delays\b|\b(?:right|left|inside|outside|two) lanes? (?:is |are )?(?:blocked|closed)\b|\bdegrees at the airport\b/,
  /\b(?:top|latest) (?:stories|headlines)\b|\breporting (?:live )?from\b|\blive (?:from|coverage)\b/,
];

/** An advert's call to action and small print. */
const ADVERT = [
  /\bterms and conditions\b/,
  /\boffer (?:ends|valid|expires)\b|\blimited time\b/,
  /\bwhile (?:stocks|supplies) last\b/,
  // An imperative, not a noun: "I can't do another phone call today".
  /(?<!\b(?:phone|another|a|the|this|that|my|your|video|zoom|conference|one|last|first) )\b(?:call|order|buy|shop|book) (?:now|today|tonight)\b/,
  /\bvisit (?:your (?:nearest|local)|us at|our website|www)\b|\b\w+ dot com\b/,
  /\b(?:use|enter) (?:the )?(?:promo )?code\b/,
  /\b(?:this weekend|today|one day|this week) only\b|\b(?:zero|0) ?(?:per ?cent|%) financing\b/,
  /\bnow open (?:in|at)\b|\bonly at (?:your|the|our) (?:favou?rite|nearest|local)\b/,
  /\b(?:per ?cent|%) off\b|\babsolutely free\b|\bfree (?:shipping|delivery|trial)\b/,
  /\bintroducing the\b|\bthe all-new\b|\bavailable (?:now )?(?:in|at) (?:stores|all)\b/,
  /\b(?:savings|results|rates|prices|terms) (?:may )?vary\b|\b(?:restrictions|exclusions|conditions) apply\b/,
  /\bnot available in all (?:states|areas|regions|markets)\b|\bsubject to (?:availability|approval|status)\b/,
  /\b(?:switch|sign up|download|subscribe|upgrade|get started|join) (?:to [\w-]+ |for free )?(?:now|today)\b/,
  /\bsave (?:up to|an average of)\b|\bask your (?:doctor|pharmacist) (?:if|about|whether)\b/,
];

/** Play-by-play: what a commentator says and friends watching rarely do, several times over. */
const COMMENTARY = [
  /\bwhat a (?:save|goal|shot|score|strike|catch|try|finish|ball|tackle|effort)\b/,
  /\b(?:minutes?|seconds?) (?:gone|left|to play|remaining)\b/,
  /\b(?:wide of|over) the (?:(?:far|near|left|right) )?(?:post|bar|goal)\b|\bback of the net\b/,
  /\bheaded (?:clear|away|wide|over|home)\b|\bcorner (?:now|taken)\b|\bthe keeper (?:was|is|gets|saves|scrambl)/,
  /\b(?:he|she)'?s got space\b|\bhe'?s in\b|\bshe'?s in\b/,
  /\bthe crowd (?:roar|is|are|goes)\w*\b|\bcrowd roaring\b/,
  /\b(?:free kick|corner kick|penalty advantage|lineout|scrum|conversion|touchdown|three-pointer|ace)\b/,
  /\bstill goalless\b|\b(?:nil|points) to (?:nil|\w+)\b/,
];

/** Weighted count of distinct broadcast markers; commentary vocabulary alone is weaker evidence. */
export function broadcastScore(text: string): number {
  const lower = text.toLowerCase();
  const count = (patterns: RegExp[]) => patterns.filter((pattern) => pattern.test(lower)).length;
  return count(PROGRAMME) + count(ADVERT) + 0.5 * count(COMMENTARY);
}

/** Two framing or advertising conventions (or four of play-by-play) make a broadcast. */
export const BROADCAST_THRESHOLD = 2;

export function isBroadcast(text: string): boolean {
  return broadcastScore(text) >= BROADCAST_THRESHOLD;
}
