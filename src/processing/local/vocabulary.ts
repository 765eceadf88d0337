/** Closed word lists shared by the relevance rules and the extractors (all lowercase). */

function wordSet(text: string): ReadonlySet<string> {
  return new Set(text.split(/\s+/).filter((word) => word !== ''));
}

/** Backchannels, hesitations, courtesy words and acknowledgements, including a few non-English ones. */
export const FILLERS = wordSet(`
  um umm uh uhh er erm ah ahh eh oh ooh hm hmm mm mmm mhm mmhmm uhhuh huh ha hah heh
  yeah yea yes yep yup ya yah ye no nope nah ok okay okey k kk alright aight right sure cool nice great
  good fine wow whoa hey hi hello hiya bye goodbye thanks thank thx cheers lol lmao omg oops ouch
  totally absolutely exactly indeed morning evening night welcome sorry yay meh gotcha
  ja jaja genau doch nee nein si sí vale claro oui ouais bon voilà da hai sim tak
  да ага угу нет ну ок
`);

/** Single-script acknowledgements written without spaces (CJK runs are checked whole). */
export const CJK_ACKNOWLEDGEMENTS = wordSet(`
  はい うん ええ そう そうそう なるほど 嗯 嗯嗯 好 好的 对 对对 是 是的 哦 啊 行 네 예 응 음 아
`);

/** Words that carry no topic on their own: pronouns, auxiliaries, prepositions, discourse verbs. */
export const FUNCTION_WORDS = wordSet(`
  a an the this that these those some any all each every no not nor
  i me my mine myself you your yours yourself he him his she her hers it its we us our they them their
  who whom whose what which where when why how there here
  am is are was were be been being have has had having do does did done doing
  will would shall should can could may might must ought 'll 've 're 's 'm 'd n't
  don't doesn't didn't can't won't isn't aren't wasn't weren't haven't hasn't wouldn't couldn't shouldn't
  i'm i've i'll i'd you're you've you'll it's that's what's there's here's let's he's she's we're they're
  of in on at to for with from by about as into like through over after before up down out off than
  and or but so because if then while though although since until unless also just really very too quite even still
  actually basically literally maybe perhaps now again already ever never always only well anyway
  kind sort lot bit thing things stuff something anything nothing everything whatever one way
  someone somebody anyone anybody everyone everybody no-one nobody
  know mean guess think see say said tell get got go going goes went gonna gotta wanna let
  come came look care mind
`);

/** Particles that belong to the verb before them: "pick it up", "User always picks up". */
export const PARTICLE = /^(?:up|out|off|back|down|over|away)$/i;

/** Verbs too light to carry a topic or a task ("I'll see", "let me think"). */
export const LIGHT_VERBS = wordSet(`
  be have do get go come see think know guess mean say tell let make take want need try like love
  feel seem look wait keep put give find use hear happen sound
`);

/** Verbs of concrete deliverables: a request or an imperative with one of these is a task. */
export const TASK_VERBS = wordSet(`
  call phone ring email mail text message reply respond write send forward share post upload
  buy purchase order grab pick get fetch bring return drop deliver ship pack
  pay invoice cancel renew book reserve schedule reschedule register apply sign submit file
  finish complete review check fix repair update prepare draft edit print scan confirm
  ask tell invite remind contact meet visit collect clean wash water feed walk charge install
  set organize arrange plan research investigate read study practice learn make redo
  move change transfer sell return backup test deploy merge publish mock design gather
  talk follow add open create remove delete cook bake hire clear sort log track translate rename measure wrap
  whatsapp ping dm slack venmo zelle swish paypal facetime skype
  print order
  chase notify inform claim request attach fill replace refill swap download photocopy lodge declare find
`);

/** Words that, after "start"/"stop"/"keep", mark a habit rather than a task ("start swimming"). */
export const HABIT_VERBS = wordSet('start stop keep quit continue');

/** Mic-check vocabulary (SPEC research §3.2: test/mic plus counting or "hear me", nothing else). */
export const MIC_WORDS = wordSet('test testing tested mic microphone check checking');
export const MIC_CHECK_VOCABULARY = wordSet(`
  test testing tested mic microphone check checking one two three four five 1 2 3 4 5 12 123
  can you hear me is this thing on working work does it audio sound recording hello hi ok okay
`);
export const COUNTING_WORDS = wordSet('one two three four five 1 2 3 4 5 12 123');

/** Homographs of names and months that protect a short transcript from a rule discard. */
export const NAME_HOMOGRAPHS = wordSet('may will bill mark sue pat june april august rose art');
