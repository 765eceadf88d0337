import type { Analysis, Sentence } from './analysis.js';
import { CALENDAR } from './memory-relatives.js';

/**
 * Where the wearer's family lives, said on the way to something else: "then I'm at my mum's in
 * Swansea for the week", "call my mom in Gdynia", "my mother will drive down from Ipoh", "can you call
 * your aunt in Matsumoto". The place is what stays: the next conversation about a visit home needs it.
 * The wearer's own places come the same way: "same time, my place in Burwood", "growing up in Recife".
 */

export interface KinPlace {
  content: string;
  sentence: Sentence;
  /** the wearer's own home or upbringing, rather than a relative's */
  own: boolean;
}

const FAMILY =
  'mum|mom|mother|mam|mama|dad|father|papa|parents|folks|grandmother|grandma|gran|granny|nan|grandfather|grandpa|grandparents|aunt|auntie|uncle|brother|sister|cousin|in-laws|son|daughter';
const PLACE = "(\\p{Lu}[\\p{L}'’-]+(?: \\p{Lu}[\\p{L}'’-]+)?)";
// "my mum's in Swansea", "my mom in Gdynia", "my parents' place in Braga", "your aunt in Matsumoto".
const AT_HOME = new RegExp(
  `\\b(my|your|our) (?:(?:older|younger|little|big|baby|eldest) )?(${FAMILY})(?:['’]s|['’])?(?: (?:place|house|flat|home|apartment|farm))? (?:in|out in|up in|down in|over in|back in) ${PLACE}`,
  'u',
);
// "my mother, she'll drive down from Ipoh", "my mom … she's coming up from Busan".
const COMING_FROM = new RegExp(
  `\\b(my|your|our) (?:(?:older|younger|little|big|baby|eldest) )?(${FAMILY})\\b[^.?!]{0,60}?\\b(?:coming|comes|flying|flies|driving|drives|drive|fly|come|travelling|traveling)(?: (?:up|down|over|in|back))? from ${PLACE}`,
  'u',
);
// "my place in Burwood", "our house in Bangi": where the wearer lives ("my old place" is not).
const OWN_HOME = new RegExp(
  `\\b(?:my|our) (?:place|house|flat|apartment|home) (?:in|out in|up in|down in|over in) ${PLACE}`,
  'u',
);
// "Growing up in Recife it was me doing the bills", "little me growing up in Leeds".
const UPBRINGING = new RegExp(
  `\\b(?:[Gg]rowing up|[Gg]rew up|[Bb]orn and raised|[Bb]rought up) (?:in|on) ${PLACE}`,
  'u',
);
// "I moved out of my flat in Žižkov": a home left is no longer where the wearer lives.
const LEFT_HOME = /\b(?:moved out of|left|sold|leaving|selling|used to live in) (?:my|our) \w+ in\b/i;
// "flowers to Mum and Dad in Inverness", "my mum and dad's place up in Leeds": the parents, named as such.
const PARENTS_AT = new RegExp(
  `\\b(?:(?:my|our) )?(?:[Mm]um|[Mm]om|[Mm]am|[Mm]a) and [Dd]ad(?:['’]s)?(?: (?:place|house|flat|home))? (?:in|up in|down in|over in|out in|back in) ${PLACE}`,
  'u',
);
// Capitalised words that are no place: days, months, holidays, a station or an airport left behind.
const NOT_A_PLACE = new RegExp(`^(?:${CALENDAR}|christmas|easter|eid|the|a|an|i)$`, 'i');
const SINGULAR: Record<string, string> = { folks: 'parents', 'in-laws': 'in-laws', parents: 'parents' };

function placesOf(text: string, isUser: boolean): string[] {
  const places: string[] = [];
  for (const pattern of [AT_HOME, COMING_FROM]) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const [, owner, kin, place] = match;
    // The wearer's family in their own words ("my"), or in what someone says to them ("your").
    if (isUser ? owner === 'your' : owner !== 'your') continue;
    const first = place.split(' ')[0];
    if (NOT_A_PLACE.test(first)) continue;
    // "Seoul Station", "Heathrow Airport": where someone is picked up, not where they live.
    const name = place.replace(/ (?:Station|Airport|Terminal|Hospital|Street|Road)$/, '');
    if (name !== place) continue;
    const relation = SINGULAR[kin] ?? kin;
    const verb = relation === 'parents' || relation === 'in-laws' || relation === 'grandparents' ? 'live' : 'lives';
    places.push(`User's ${relation} ${verb} in ${name}`);
  }
  const parents = isUser ? PARENTS_AT.exec(text)?.[1] : undefined;
  if (parents !== undefined && !NOT_A_PLACE.test(parents.split(' ')[0]))
    places.push(`User's parents live in ${parents}`);
  return places;
}

/** The wearer's own home or upbringing, in their own words. */
function ownPlace(text: string): string | null {
  for (const [pattern, fact] of [
    [OWN_HOME, 'User lives in'],
    [UPBRINGING, 'User grew up in'],
  ] as const) {
    if (pattern === OWN_HOME && LEFT_HOME.test(text)) continue;
    const place = pattern.exec(text)?.[1];
    if (place !== undefined && !NOT_A_PLACE.test(place.split(' ')[0])) return `${fact} ${place}`;
  }
  return null;
}

/** Where each of the wearer's relatives lives, once per relative, and the wearer's own home, as said. */
export function kinPlaces(analysis: Analysis): { kin: KinPlace[]; own: KinPlace[] } {
  if (analysis.attribution === 'absent') return { kin: [], own: [] };
  const found = new Map<string, KinPlace>();
  for (const sentence of analysis.sentences) {
    if (!sentence.isUser && !analysis.dialogue) continue;
    for (const content of placesOf(sentence.text, sentence.isUser)) {
      const relation = content.split(' ')[1];
      if (!found.has(relation)) found.set(relation, { content, sentence, own: false });
    }
    const own = sentence.isUser ? ownPlace(sentence.text) : null;
    if (own !== null && !found.has(own)) found.set(own, { content: own, sentence, own: true });
  }
  const all = [...found.values()];
  return { kin: all.filter((place) => !place.own), own: all.filter((place) => place.own) };
}
