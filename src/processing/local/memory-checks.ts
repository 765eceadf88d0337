import { BELONGING_WORD } from './memory-patterns.js';
import { parseTokens, type Token } from './nlp.js';

/**
 * Whether a rewritten memory stands on its own. A stored fact is read months later without the
 * conversation, so it needs a subject, a complete predicate, and no word that only the conversation
 * could resolve ("User rides it", "User never got to", "User is calmer").
 */

// Words a predicate cannot end on: "User never got to", "User lives by".
const DANGLING = new Set(
  'to got get be been a an the my their of for with and or is are was has have in on at by from about into as than up wanted want needed need meant planned hoped tried say says said tell tells told'.split(
    ' ',
  ),
);
const DANGLING_TAGS = new Set(['ADP', 'DET', 'CCONJ', 'SCONJ', 'AUX']);
// Pronouns whose referent was in the conversation, not in the memory.
const UNRESOLVED = new Set(['it', 'this', 'that', 'these', 'those', 'them']);

/** "User is calmer", "User is stronger": a comparison with someone or some time the memory lost. */
function comparisonOnly(tokens: Token[]): boolean {
  const last = tokens.at(-1);
  return (
    tokens.length === 3 &&
    tokens[1]?.lemma === 'be' &&
    last !== undefined &&
    last.pos === 'ADJ' &&
    last.lemma !== last.normal &&
    /(?:er|est)$/.test(last.normal)
  );
}

/** "User is Dmitri": the wearer introducing themselves, which the account already knows. */
function nameOnly(tokens: Token[]): boolean {
  return (
    tokens[1]?.lemma === 'be' &&
    tokens.length > 2 &&
    tokens.slice(2).every((token) => token.pos === 'PROPN') &&
    !tokens.slice(2).some((token) => BELONGING_WORD.test(token.value))
  );
}

// Words that need a complement the memory lost: "User is more", "User is different".
const VAGUE = new Set(['more', 'less', 'different', 'same', 'other', 'such', 'much', 'many', 'enough']);

// "User is awake", "User is allergic": a passing state, or one whose complement ("to penicillin") was lost.
const PASSING_STATE = new Set(
  'awake asleep tired exhausted hungry thirsty ready late early busy free fine okay ok sick allergic sorry sure done good great bored cold hot full lost broke back home nervous stressed excited happy sad upset angry worried scared in out bad terrible awful horrible hopeless useless human halfway wiggly lucky crazy right wrong'.split(
    ' ',
  ),
);
// "User is in Lisbon for a conference", "User is in Istanbul until Thursday": where the wearer is this week
// ("on maternity leave till March" lasts, and stays).
const FOR_NOW =
  /^User is\b.*\b(?:(?:until|till) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|the weekend)|today|tonight|tomorrow|right now|at the moment|this week|for now|anyway|for (?:a|the) (?:conference|meeting|week|weekend|day|night|trip|wedding|holiday|visit|funeral|course|workshop))\b/i;

// "User is still getting on alright": how the wearer is keeping today.
const KEEPING =
  /^User is (?:still |just )?(?:getting on|getting by|keeping|doing|holding up|managing|hanging in)(?: there)?(?: (?:alright|all right|fine|okay|ok|well|good|great|badly|so-so))?$/i;

/** "User never got to" is a fragment: a memory has a subject, a verb and something after it. */
export function complete(content: string): boolean {
  if (KEEPING.test(content)) return false;
  const words = content.split(' ');
  const last = (words.at(-1) ?? '').toLowerCase().replace(/[.!?,;:]+$/, '');
  if (words.length === 3 && words[1] === 'is' && PASSING_STATE.has(last)) return false;
  // "User is in. Honestly": a fact runs into the next sentence only when a sentence split was missed.
  if (FOR_NOW.test(content) || /\b\p{Ll}{2,}[.!?]\s+\p{Lu}/u.test(content)) return false;
  // A "you" left in a memory points at whoever the wearer spoke to, which a stored fact cannot.
  if (words.length < 3 || DANGLING.has(last) || /\b(?:you|your|yours)\b/i.test(content)) return false;
  const tokens = parseTokens(content).filter((token) => token.pos !== 'PUNCT');
  const end = tokens.at(-1);
  // "User has lived", "User has noticed": a perfect with nothing after it was cut short.
  if (words.length === 3 && /^(?:has|had)$/.test(words[1]) && end?.pos === 'VERB') return false;
  // "User never called", "User came last year", "User moved in two years ago": a verb with only a when
  // after it has lost what it was about, or where to.
  if (words.length === 3 && /^(?:never|just|already|finally)$/.test(words[1]) && end?.pos === 'VERB') return false;
  if (
    /^User (?:came|went|moved(?: in| over| back)?|arrived|got here) (?:last|this|a|two|three|a few|in \d{4}|\w+ (?:years?|months?) ago)\b[^,]*$/.test(
      content,
    ) &&
    !/\b(?:to|from|into)\b/.test(content)
  )
    return false;
  if (end !== undefined && DANGLING_TAGS.has(end.pos) && end.normal !== "'s") return false;
  // "User wears those on weekends": a demonstrative standing for a noun is a pronoun too.
  const standsAlone = (index: number) => !['NOUN', 'PROPN', 'ADJ', 'NUM'].includes(tokens[index + 1]?.pos ?? '');
  if (
    tokens.some(
      (token, index) =>
        UNRESOLVED.has(token.normal) && (token.pos === 'PRON' || (token.pos === 'DET' && standsAlone(index))),
    )
  )
    return false;
  // "User never needed one in Japan": "one" standing for a thing only the conversation named.
  if (/^User (?:\w+ )?(?:needed|needs|need|has|had|got|wanted|wants|bought|owns|owned) one\b(?! of\b)/.test(content))
    return false;
  // "User has been here nine years": a place only the conversation knew.
  if (/\b(?:here|there)\b/i.test(content)) return false;
  // "User is more", "User is still": a verb with only an adverb after it says nothing.
  const bare =
    tokens.length === 3 &&
    (['ADV', 'DET', 'PART'].includes(tokens[2]?.pos ?? '') || VAGUE.has(tokens[2]?.normal ?? ''));
  return !comparisonOnly(tokens) && !nameOnly(tokens) && !bare;
}
