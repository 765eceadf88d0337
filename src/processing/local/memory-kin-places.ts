import type { Analysis, Sentence } from './analysis.js';
import { CALENDAR } from './memory-relatives.js';

/**
 * Where the wearer's family lives, said on the way to something else: "then I'm at my mum's in
 * Swansea for the week", "call my mom in Gdynia", "my mother will drive down from Ipoh", "can you call
 * your aunt in Matsumoto". The place is what stays: the next conversation about a visit home needs it.
 */

export interface KinPlace {
  content: string;
  sentence: Sentence;
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
  return places;
}

/** Where each of the wearer's relatives lives, once per relative, as the conversation says it. */
export function kinPlaces(analysis: Analysis): KinPlace[] {
  if (analysis.attribution === 'absent') return [];
  const found = new Map<string, KinPlace>();
  for (const sentence of analysis.sentences) {
    if (!sentence.isUser && !analysis.dialogue) continue;
    for (const content of placesOf(sentence.text, sentence.isUser)) {
      const relation = content.split(' ')[1];
      if (!found.has(relation)) found.set(relation, { content, sentence });
    }
  }
  return [...found.values()];
}
