import type { MemoryCategory } from '../../domain/categories.js';
import { DATED_BACK, HABIT_PATTERNS, MILESTONE_VERBS, MORE_MILESTONES } from './memory-habits.js';
import { WORK_PATTERNS } from './memory-work.js';

/** A first-person fact shape; the clause it matches (from the subject on) becomes the memory. */
export interface FactPattern {
  pattern: RegExp;
  category: MemoryCategory | ((match: RegExpExecArray) => MemoryCategory);
}

const WORK_VERBS = new Set(
  'lead leading led manage managing managed work working worked teach teaching taught consult consulting'.split(' '),
);
const SKILL_VERBS = new Set(
  'learn learning learned study studying studied practice practicing practising speak speaking'.split(' '),
);
const HOBBY_VERBS = new Set(
  `play playing played climb climbing climbed boulder bouldering paint painting draw drawing swim swimming cycle cycling
  bike biking hike hiking knit knitting cook cooking bake baking garden gardening surf surfing ski skiing dance dancing
  sing singing read reading collect collecting photograph photographing fish fishing train training run running row
  rowing brew brewing sail sailing skate skating coach coaching volunteer volunteering`.split(/\s+/),
);

/** Ongoing activities are sorted by their verb: "leading a team" is work, "learning Japanese" a skill. */
export function categoryOfActivity(verb: string): MemoryCategory {
  const lower = verb.toLowerCase();
  if (WORK_VERBS.has(lower)) return 'work';
  if (SKILL_VERBS.has(lower)) return 'skills';
  if (HOBBY_VERBS.has(lower)) return 'hobbies';
  return 'habits';
}

const PROFESSIONS = new Set(
  `nurse doctor chef cook pilot barista paramedic surgeon dentist pharmacist therapist lawyer attorney judge
  accountant architect engineer developer designer teacher professor student researcher scientist writer journalist
  editor artist musician photographer electrician plumber carpenter mechanic firefighter officer soldier farmer
  programmer analyst consultant manager founder entrepreneur freelancer contractor librarian translator tutor
  veterinarian vet tech technician physiotherapist physio psychologist midwife cashier waiter waitress bartender driver realtor`.split(
    /\s+/,
  ),
);

/** "nurse", "backend developer": a job noun, listed or recognisable by its agent suffix. */
export function isProfession(words: string[]): boolean {
  return words.some((word) => PROFESSIONS.has(word.toLowerCase()) || /(?:eer|ist|ician|ologist|keeper)$/i.test(word));
}

const RELATIVES =
  '(?:wife|husband|partner|boyfriend|girlfriend|sons?|daughters?|kids?|children|twins|baby|mom|mum|mother|dad|father|brother|sister|grandma|grandmother|grandpa|grandfather|parents|dog|cat|best friend|boss)';
export const RELATIVE_SUBJECT = new RegExp(`^my ${RELATIVES}\\b`, 'i');
/** A fond or ordering word between "my" and the relative: "my darling husband", "my eldest daughter". */
const FOND =
  '(?:(?:lovely|darling|dear|beautiful|wonderful|amazing|little|big|older|younger|eldest|oldest|youngest|late) )?';
/** Waiting, wondering, trying: what one has "been doing for years" that is no pursuit. */
export const IDLE =
  '(?:thinking|wondering|waiting|meaning|trying|saying|asking|telling|hoping|looking|sitting|standing)';
const FREQUENCY =
  '(?:every (?:day|morning|evening|night|week|weekend|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:once|twice|\\w+ times) a (?:day|week|month|year)|(?:on )?(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)|on weekends)';

/** Faiths and nationalities a wearer says they are ("I'm Catholic", "I'm Nigerian-Canadian"). */
export const BELONGING =
  `catholic|muslim|jewish|hindu|buddhist|sikh|christian|orthodox|atheist|agnostic|protestant|mormon|quaker|
  nigerian|ghanaian|kenyan|ethiopian|south african|egyptian|moroccan|algerian|tunisian|lebanese|syrian|iraqi|iranian|turkish|
  pakistani|indian|bangladeshi|sri lankan|nepali|chinese|japanese|korean|vietnamese|thai|filipino|filipina|indonesian|
  malaysian|singaporean|australian|new zealander|kiwi|canadian|american|mexican|brazilian|argentinian|argentine|chilean|
  colombian|peruvian|venezuelan|cuban|puerto rican|dominican|jamaican|haitian|british|english|scottish|welsh|irish|french|
  german|dutch|belgian|swiss|austrian|italian|spanish|portuguese|greek|polish|czech|slovak|hungarian|romanian|bulgarian|
  serbian|croatian|bosnian|ukrainian|russian|swedish|norwegian|danish|finnish|icelandic|estonian|latvian|lithuanian`
    .split(/\s*\|\s*/)
    .join('|');
/** "Catholic", "Nigerian-Canadian": a faith or a nationality, which reads as a name but is none. */
export const BELONGING_WORD = new RegExp(`^(?:${BELONGING})(?:-\\w+)?$`, 'i');

export const FACT_PATTERNS: FactPattern[] = [
  {
    pattern: /^(?:I|we)(?:'ve| have)? (?:just |recently |finally |only )?(?:moved|relocated) (?:to|here|back|from)\b/i,
    category: 'core',
  },
  // "We moved into an apartment in Brunswick", "I moved back from Osaka last year".
  {
    pattern: /^(?:I|we)(?:'ve| have)? (?:just |recently |finally )?moved (?:into|in|out of|back (?:from|to|home))\b/i,
    category: 'core',
  },
  { pattern: /^I (?:live|grew up|was born|was raised)\b/i, category: 'core' },
  // "we rent together in Harris Park", "so we bought a place in Hillcrest": where the household lives.
  {
    pattern:
      /^I (?:rent|bought|own) (?:together |(?:a|our) (?:place|house|flat|apartment|home|condo|unit) )?in \p{Lu}/u,
    category: 'core',
  },
  // "My birthday is on the 3rd of May", "I'm thirty-four", "I used to live in Lisbon": who the wearer is.
  { pattern: /^my birthday(?:'s| is)\b/i, category: 'core' },
  {
    pattern:
      /^I(?:'m| am) (?:\d{1,2}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?)(?: years old)?(?: now| already)?$/i,
    category: 'core',
  },
  { pattern: /^I used to (?:live|work|teach|study|be an? )\b/i, category: 'core' },
  // "I did page layout for a newspaper for six years": a stretch of a working life, counted in years.
  {
    pattern:
      /^I did (?!it\b|that\b|this\b)[\w' -]+ for (?:about |almost |nearly |over )?(?:[\w-]+ ){1,2}(?:years|decades)\b/i,
    category: 'work',
  },
  // "I fixed pumps for thirty years at the paper mill": a past stretch of work, counted in years.
  {
    pattern:
      /^I (?:\w+ed|taught|ran|led|drove|sold|wrote|built|made|kept|sang|rode|flew) (?!it\b|that\b|this\b|them\b)[\w' -]+ for (?:about |almost |nearly |over )?(?:[\w-]+ ){1,2}(?:years|decades)\b/i,
    category: 'work',
  },
  // "We've been married for ten years": the couple's span ("together" would leave who unsaid).
  { pattern: /^(?:I|we)(?:'ve| have) been married\b/i, category: 'core' },
  // "I'm seven months pregnant", "I'm on maternity leave", "I'm on blood thinners": a state that lasts.
  { pattern: /^I(?:'m| am) (?:\w+ (?:weeks|months) )pregnant\b/i, category: 'core' },
  {
    pattern:
      /^I(?:'m| am) (?:still |currently |now )?on (?:\w+ )?(?:leave|sabbatical|medication|meds|thinners|insulin|antidepressants|statins|dialysis|chemo)\b/i,
    category: 'core',
  },
  // "I'm doing my MBA at FGV", "I've got my MBA classes on Thursdays": a course of study the wearer is on.
  {
    pattern:
      /^I(?:'m| am|'ve got| have| have got) (?:doing )?my (?:mba|phd|masters?|master's|degree|diploma|a-levels)\b/i,
    category: 'skills',
  },
  // "I'm still driving the bus for CTA": an ongoing occupation, placed by whom or where it is done for.
  { pattern: /^I(?:'m| am) still \w+ing\b(?:[\w' -]+)? (?:for|at|with) \p{Lu}/u, category: 'work' },
  { pattern: new RegExp(`^I(?:'m| am) (?:a )?(?:${BELONGING})\b`, 'i'), category: 'core' },
  // "I got married in June", "I've got three kids": a change of family, and a family counted.
  { pattern: /^I (?:just |recently )?got (?:married|engaged|divorced)\b/i, category: 'core' },
  {
    pattern:
      /^I(?:'ve| have) got (?:a|an|one|two|three|four|five|six|\d+) (?:\w+ )?(?:kids?|children|sons?|daughters?|boys?|girls?|dogs?|cats?|grandkids?|grandchildren)\b/i,
    category: 'core',
  },
  // "I've been at Deloitte three months now": where the wearer has been, named.
  { pattern: /^I(?:'ve| have) been (?:at|with) \p{Lu}/u, category: 'work' },
  // "We're engaged", "we are expecting our first in May": the couple's news is the wearer's.
  // ("we" is read as "I" by then: "I'm expecting our first baby".)
  { pattern: /^(?:we|I)(?:'re|'m| are| am) (?:engaged|married|getting married|pregnant)\b/i, category: 'core' },
  {
    pattern:
      /^(?:we|I)(?:'re|'m| are| am) expecting (?:(?:a|my|our|the) )?(?:(?:first|second|third|fourth|little) )?(?:baby|child|kid|boy|girl|twins|son|daughter|first|second|third)\b/i,
    category: 'core',
  },
  // "I paid off the mortgage last year", "I graduated in 2019".
  {
    pattern: new RegExp(
      `^I (?:finally |just )?(?:${MILESTONE_VERBS}|${MORE_MILESTONES})\\b[^,;]*\\b${DATED_BACK}`,
      'i',
    ),
    category: 'core',
  },
  // "My blood pressure is borderline": a measure of the wearer's health, said by them.
  {
    pattern:
      /^my (?:own )?(?:blood pressure|cholesterol|blood sugar|sugar|iron|vitamin d|thyroid|heart rate|a1c|hba1c|eyesight|hearing)(?: levels?)? (?:is|are|was|were|has been|have been) (?:\w+ )?(?:high|low|borderline|normal|fine|good|bad|raised|elevated|up|down|okay|ok|great|poor)\b/i,
    category: 'core',
  },
  {
    pattern: /^(?:I|[Ww]e)(?:'m|'re| am| are) (?:moving|relocating|emigrating) (?:back )?to \p{Lu}/u,
    category: 'core',
  },
  { pattern: /^I (?:want|plan|hope|intend) to move (?:back )?to \p{Lu}/u, category: 'core' },
  // "We're in Tây Hồ, near the lake", "I'm twenty minutes away in Gdańsk": where the household is.
  {
    pattern: /^(?:I|we)(?:'m|'re| am| are) (?:based |living |(?:\w+ )?(?:minutes|hours?) away )?in \p{Lu}/u,
    category: 'core',
  },
  {
    pattern: /^(?:my|our) (?:whole )?famil(?:y|ies) (?:is|are|lives?) (?:all )?(?:in|back in) \p{Lu}/u,
    category: 'core',
  },
  // "I go back to work at BPI", "I've been working for Nokia since 2019".
  { pattern: /^I(?:'ve| have)? (?:\w+ )?(?:back )?(?:to )?work(?:ing|ed)? (?:at|for) \p{Lu}/u, category: 'work' },
  // "I'm in my last year of a teaching degree at UNSW", "I'm in second year of medicine".
  {
    pattern: /^I(?:'m| am) (?:in )?(?:my )?(?:first|second|third|fourth|final|last|\w+th) year (?:of|at|in)\b/i,
    category: 'core',
  },
  { pattern: /^I (?:applied|got in|got into|was accepted|got accepted) (?:to|at|into) \p{Lu}/u, category: 'core' },
  { pattern: /^I(?:'m| am) (?:originally )?from\b/i, category: 'core' },
  { pattern: /^I(?:'m| am) (?:severely |very )?(?:allergic|intolerant) to\b/i, category: 'core' },
  {
    pattern:
      /^I(?:'ve got| have got| have| get| suffer from) (?:(?:bad |severe |chronic )?(?:anxiety|migraines?|panic attacks|insomnia|asthma|diabetes|adhd|depression|eczema|back pain|celiac)|an? (?:bad|dodgy|weak|gammy|bum|wonky|dicky) (?:back|knees?|hips?|shoulder|ankle|neck|wrist|heart)\b)/i,
    category: 'core',
  },
  // A diet, a habit kept or given up, what the body does (memory-habits.ts).
  ...HABIT_PATTERNS,
  {
    pattern:
      /^I(?:'m| am) (?:married|engaged|divorced|single|pregnant|retired|left-handed|an only child|a (?:parent|mom|dad|twin))\b/i,
    category: 'core',
  },
  {
    pattern:
      /^I have (?:a|an|another|one|two|three|four|five|\d+) (?:\w+ )?(?:kids?|children|sons?|daughters?|dogs?|cats?|pets?|brothers?|sisters?|siblings?|grandchildren|twins|husband|wife|partner)\b/i,
    category: 'core',
  },
  ...WORK_PATTERNS,
  // A change of career the wearer means to make: "I want to move into product management".
  {
    pattern:
      /^I(?:'d| would)? (?:really )?(?:want|like|hope|plan|'m planning|am planning) to (?:move|get|switch|go) (?:into|to) /i,
    category: 'work',
  },
  // What the wearer gave up: "I'm still off sugar", "I don't do social media anymore".
  {
    pattern:
      /^I(?:'m| am) (?:still |completely )?off (?:the )?(?:sugar|alcohol|booze|drink|drinking|meat|dairy|gluten|caffeine|coffee|carbs|cigarettes|smoking|social media|junk food|red meat|bread)\b/i,
    category: 'lifestyle',
  },
  { pattern: /^I (?:don't|do not) (?:do|use|eat|drink|smoke|watch|drive)\b.*\banymore\b/i, category: 'lifestyle' },
  // An education: "I did my undergrad in physics at METU", "I did history at Leeds", "I majored in economics".
  {
    pattern:
      /^I (?:did|got|have|finished|completed|earned|started) (?:my |a |an )?(?:undergrad|undergraduate|degree|bachelor'?s|master'?s|masters|phd|doctorate|mba|residency|apprenticeship)\b/i,
    category: 'core',
  },
  {
    pattern:
      /^I (?:did|studied|read|majored in|trained in|trained as) (?:[\w'-]+ ){1,3}(?:at|in) (?!(?:January|February|March|April|May|June|July|August|September|October|November|December)\b)\p{Lu}/u,
    category: 'core',
  },
  // What the wearer became or means to become: "I became an architect", "I want to be a nurse".
  {
    pattern:
      /^I (?:became|(?:want|hope|plan|dream|am hoping|'m hoping) to (?:be|become)) (?:an? )((?:[\w-]+ ){0,2}[\w-]+)/i,
    category: (match) => (isProfession(match[1].split(' ')) ? 'work' : 'core'),
  },
  // A group the wearer joined: "I signed up for the ceramics class again", "I joined a choir".
  {
    pattern:
      /^I(?:'ve| have)? (?:just )?(?:signed up for|joined|enrolled in|took up|started) (?:the |a |an |my )?(?:[\w'-]+ ){0,2}(?:class|classes|club|course|team|choir|league|band|orchestra|gym|lessons|group|society)\b/i,
    category: 'hobbies',
  },
  { pattern: /^I(?:'ve| have) always (?:wanted|dreamed|loved|hated|been)\b/i, category: 'interests' },
  {
    // "I've been thinking for two years", "I've been waiting since May": a wait or a thought is no pursuit.
    pattern: new RegExp(
      `^I(?:'ve| have) been (?!${IDLE}\\b)(\\w+ing)\\b.*(?:\\b(?:for|since)\\b|\\b${FREQUENCY}\\b)`,
      'i',
    ),
    category: (match) => categoryOfActivity(match[1]),
  },
  {
    pattern:
      /^I(?:'ve| have) (\w+ed|played|taught|run|led|done|sung|ridden|worn|known|had|kept) .*(?:\b(?:for )?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|a couple of|[a-z]+(?:teen|ty)(?:-[a-z]+)?) (?:years?|months?|decades?)(?: now)?$|\bfor (?:\w+ ){1,2}(?:years?|months?|decades?)\b|\bsince\b)/i,
    category: (match) => categoryOfActivity(match[1]),
  },
  {
    pattern: /^I(?:'ve| have) (?:recently |just )?(?:started|taken up|begun|picked up) (\w+ing)\b/i,
    category: (match) => (categoryOfActivity(match[1]) === 'hobbies' ? 'hobbies' : 'habits'),
  },
  { pattern: /^I(?:'ve| have) (?:been|lived|travel(?:l)?ed) (?:to|in) [A-Z]/, category: 'other' },
  {
    pattern:
      /^I(?:'m| am) (?:also |currently )?(training|learning|studying|preparing|saving|coaching|volunteering|teaching|renovating)(?: up)?(?: for)?\b/i,
    category: (match) => categoryOfActivity(match[1]),
  },
  // "I'm doing a master's in public health", "I'm taking pottery classes", "I'm writing a novel": a
  // pursuit under way, by what it is.
  {
    pattern:
      /^I(?:'m| am) (?:also |currently )?(?:doing an? (?:phd|doctorate|master'?s|masters|mba|degree|diploma|course|apprenticeship)|taking (?:\w+ )?(?:classes|lessons|a course)|writing an? (?:book|novel|memoir|thesis|dissertation))\b/i,
    category: 'skills',
  },
  {
    pattern:
      /^I(?:'m| am) (?:really |very |super )?(?:into|interested in|passionate about|obsessed with|a (?:huge |big )?fan of)\b/i,
    category: 'interests',
  },
  {
    // "I always forget the name", "I always freeze": a slip the wearer laughs at is no habit.
    pattern:
      /^I (?:mostly|usually|always|often|normally|never|rarely|typically|regularly) (?!(?:forget|forgets|freeze|lose|mess|mix|get)\b)(\w+)/i,
    category: (match) => (categoryOfActivity(match[1]) === 'hobbies' ? 'hobbies' : 'habits'),
  },
  {
    // "I can do Sundays" offers a day; it is no habit.
    pattern: new RegExp(`^I (?!(?:can|could|will|would|might|may|should)\\b)(\\w+) .*\\b${FREQUENCY}\\b`, 'i'),
    category: (match) => (categoryOfActivity(match[1]) === 'hobbies' ? 'hobbies' : 'habits'),
  },
  {
    pattern:
      /^I (?:really |absolutely )?(?:love|adore|enjoy|hate|can't stand|prefer) (?!it\b|that\b|this\b|you\b|to\b|him\b|her\b|them\b|when\b|how\b)/i,
    category: 'interests',
  },
  { pattern: /^I (?:speak|can speak|can play|can cook|can code|know how to)\b/i, category: 'skills' },
  { pattern: /^I(?:'m| am) (?:fluent|good|great|terrible|bad|decent|pretty good) (?:at|in)\b/i, category: 'skills' },
  { pattern: /^I (?:learned|learnt|realized|found out|discovered) that\b/i, category: 'learnings' },
  {
    pattern: new RegExp(
      `^my ${FOND}${RELATIVES}(?: \\w+)? (?:is|are|was|were|lives|live|works|work|just|has|have|moved|studies|turned|turns|started|starts|start|runs|plays|grew up|comes|came|passed away|died)\\b`,
      'i',
    ),
    category: 'core',
  },
];
