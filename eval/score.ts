import type { ExtractedActionItem, TextEngine } from '../src/processing/engine.js';
import { localDateTime } from '../src/processing/local/timezone.js';
import type { EvalCase, InputForm } from './dataset.js';
import { containsKeyword, pairUp } from './matching.js';

export interface Counts {
  extracted: number;
  labeled: number;
  matched: number;
}

export interface EvalReport {
  cases: number;
  discardAccuracy: number;
  categoryAccuracy: number;
  /** the category is one of the labels' acceptable ones */
  categoryAcceptable: number;
  /** of kept cases with title keywords, the share whose title contains one */
  titles: { labeled: number; matched: number; rate: number };
  actionItems: Counts & { precision: number; recall: number; f1: number };
  /** exact: the same local date (or minute, when the label gives a time); withinDay: at most a day off */
  dueAccuracy: { correct: number; withinDay: number; total: number; accuracy: number; withinDayRate: number };
  memories: Counts & { precision: number; recall: number; f1: number };
  events: { labeled: number; matched: number; recall: number };
  /** action items and memories per input form, to see whether every form reaches the wearer */
  byForm: Array<{ form: InputForm; cases: number; actionItems: Scored; memories: Scored }>;
  misses: string[];
}

type Scored = Counts & { precision: number; recall: number; f1: number };

interface FormTally {
  cases: number;
  items: Counts;
  memories: Counts;
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 1 : part / whole;
}

function withF1(counts: Counts): Scored {
  const precision = ratio(counts.matched, counts.extracted);
  const recall = ratio(counts.matched, counts.labeled);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { ...counts, precision, recall, f1 };
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** The due date as the label writes it: local "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM". */
function localLabel(dueAt: Date, timezone: string, withTime: boolean): string {
  const local = localDateTime(dueAt, timezone);
  const date = `${local.year}-${pad(local.month)}-${pad(local.day)}`;
  return withTime ? `${date}T${pad(local.hour)}:${pad(local.minute)}` : date;
}

interface Tally {
  discardCorrect: number;
  categoryCorrect: number;
  categoryAcceptable: number;
  categoryTotal: number;
  titles: { labeled: number; matched: number };
  items: Counts;
  due: { correct: number; withinDay: number; total: number };
  memories: Counts;
  events: { labeled: number; matched: number };
  forms: Map<InputForm, FormTally>;
  misses: string[];
}

function zero(): Counts {
  return { extracted: 0, labeled: 0, matched: 0 };
}

function addCounts(into: Counts, from: Counts): void {
  into.extracted += from.extracted;
  into.labeled += from.labeled;
  into.matched += from.matched;
}

const DAY_MS = 86_400_000;

/** Whole days between the label's local date and the extracted instant's local date. */
function daysOff(dueAt: Date, timezone: string, label: string): number {
  const got = Date.parse(`${localLabel(dueAt, timezone, false)}T00:00:00Z`);
  const wanted = Date.parse(`${label.slice(0, 10)}T00:00:00Z`);
  return Math.abs(got - wanted) / DAY_MS;
}

/** Counts a one-to-one pairing of labels with extracted texts and notes what was missed or extra. */
function tallyPairs(
  id: string,
  what: string,
  labels: Array<{ keywords: string[] }>,
  texts: string[],
  counts: Counts,
  misses: string[],
): number[] {
  const pairs = pairUp(labels, texts);
  counts.extracted += texts.length;
  counts.labeled += labels.length;
  counts.matched += pairs.filter((index) => index !== -1).length;
  pairs.forEach((index, labelIndex) => {
    if (index === -1) misses.push(`${id}: missed ${what} [${labels[labelIndex].keywords.join(', ')}]`);
  });
  texts.forEach((text, index) => {
    if (!pairs.includes(index)) misses.push(`${id}: extra ${what} "${text}"`);
  });
  return pairs;
}

function tallyDue(evalCase: EvalCase, items: ExtractedActionItem[], pairs: number[], tally: Tally): void {
  pairs.forEach((index, labelIndex) => {
    const label = evalCase.labels.action_items[labelIndex];
    if (index === -1 || label.due === undefined) return;
    tally.due.total++;
    const dueAt = items[index].dueAt;
    const got = dueAt === null ? 'none' : localLabel(dueAt, evalCase.input.timezone, label.due.includes('T'));
    if (dueAt !== null && daysOff(dueAt, evalCase.input.timezone, label.due) <= 1) tally.due.withinDay++;
    if (got === label.due) tally.due.correct++;
    else tally.misses.push(`${evalCase.id}: due for [${label.keywords.join(', ')}] expected ${label.due}, got ${got}`);
  });
}

function tallyTitle(id: string, keywords: string[], title: string, tally: Tally): void {
  if (keywords.length === 0) return;
  tally.titles.labeled++;
  if (keywords.some((keyword) => containsKeyword(title, keyword))) tally.titles.matched++;
  else tally.misses.push(`${id}: title "${title}" has none of [${keywords.join(', ')}]`);
}

function formTally(tally: Tally, form: InputForm): FormTally {
  const existing = tally.forms.get(form);
  if (existing !== undefined) {
    existing.cases++;
    return existing;
  }
  const created = { cases: 1, items: zero(), memories: zero() };
  tally.forms.set(form, created);
  return created;
}

async function scoreCase(engine: TextEngine, evalCase: EvalCase, tally: Tally): Promise<void> {
  const { input, labels, id } = evalCase;
  const decision = await engine.decideRelevance(input);
  if ((decision.verdict === 'discard') === labels.discard) tally.discardCorrect++;
  else tally.misses.push(`${id}: discard expected ${labels.discard}, got ${decision.verdict} (${decision.reason})`);
  if (labels.discard) return;
  const structure = await engine.structure(input);
  tally.categoryTotal++;
  if (structure.category === labels.category) tally.categoryCorrect++;
  else tally.misses.push(`${id}: category expected ${labels.category}, got ${structure.category}`);
  if ((labels.categories_ok ?? [labels.category]).includes(structure.category)) tally.categoryAcceptable++;
  tallyTitle(id, labels.title_keywords ?? [], structure.title, tally);
  const form = formTally(tally, evalCase.form);
  const items = await engine.extractActionItems(input, evalCase.recent);
  const descriptions = items.map((item) => item.description);
  const itemCounts = zero();
  tallyDue(evalCase, items, tallyPairs(id, 'item', labels.action_items, descriptions, itemCounts, tally.misses), tally);
  addCounts(tally.items, itemCounts);
  addCounts(form.items, itemCounts);
  const memories = (await engine.extractMemories(input, [])).map((memory) => memory.content);
  const memoryCounts = zero();
  tallyPairs(id, 'memory', labels.memories, memories, memoryCounts, tally.misses);
  addCounts(tally.memories, memoryCounts);
  addCounts(form.memories, memoryCounts);
  const events = structure.events.map((event) => `${event.title} ${event.description}`);
  // Events are scored for recall only: a surplus event is cheap, a missed appointment is not.
  const eventCounts = { extracted: 0, labeled: 0, matched: 0 };
  const eventMisses: string[] = [];
  tallyPairs(id, 'event', labels.events, events, eventCounts, eventMisses);
  tally.events.labeled += eventCounts.labeled;
  tally.events.matched += eventCounts.matched;
  tally.misses.push(...eventMisses.filter((miss) => miss.includes(': missed ')));
}

/** Runs every step of the engine over the dataset; extraction is scored on the transcripts labeled as kept. */
export async function evaluate(engine: TextEngine, cases: EvalCase[]): Promise<EvalReport> {
  const tally: Tally = {
    discardCorrect: 0,
    categoryCorrect: 0,
    categoryAcceptable: 0,
    categoryTotal: 0,
    titles: { labeled: 0, matched: 0 },
    items: { extracted: 0, labeled: 0, matched: 0 },
    due: { correct: 0, withinDay: 0, total: 0 },
    memories: { extracted: 0, labeled: 0, matched: 0 },
    events: { labeled: 0, matched: 0 },
    forms: new Map(),
    misses: [],
  };
  for (const evalCase of cases) await scoreCase(engine, evalCase, tally);
  return {
    cases: cases.length,
    discardAccuracy: ratio(tally.discardCorrect, cases.length),
    categoryAccuracy: ratio(tally.categoryCorrect, tally.categoryTotal),
    categoryAcceptable: ratio(tally.categoryAcceptable, tally.categoryTotal),
    titles: { ...tally.titles, rate: ratio(tally.titles.matched, tally.titles.labeled) },
    actionItems: withF1(tally.items),
    dueAccuracy: {
      ...tally.due,
      accuracy: ratio(tally.due.correct, tally.due.total),
      withinDayRate: ratio(tally.due.withinDay, tally.due.total),
    },
    memories: withF1(tally.memories),
    events: { ...tally.events, recall: ratio(tally.events.matched, tally.events.labeled) },
    byForm: [...tally.forms.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([form, counts]) => ({
        form,
        cases: counts.cases,
        actionItems: withF1(counts.items),
        memories: withF1(counts.memories),
      })),
    misses: tally.misses,
  };
}
