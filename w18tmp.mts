import { createLocalEngine } from './src/processing/local/index.ts';
import { analysisOf } from './src/processing/local/analysis.ts';
import { categorize } from './src/processing/local/category.ts';
import { buildOverview, buildTitle } from './src/processing/local/summary.ts';
import { extractEvents } from './src/processing/local/events.ts';
import { extractActionItems } from './src/processing/local/action-items.ts';
import { extractMemories } from './src/processing/local/memories.ts';
const LINES = [
  [false, 'Morning! Did you get a chance to look at the budget for the Lisbon offsite?'],
  [true, "Yes, I'll send the revised numbers to Priya by Friday, the venue quote went up again."],
  [false, 'Can you also book the team dinner for Thursday at seven? Somewhere near the hotel.'],
  [true, "Sure. I live near Alfama, so I know a few places. I'm allergic to shellfish though."],
  [false, 'Noted. The client wants the roadmap presentation moved to next week.'],
  [true, 'That works. I need to update the slides and remind me to call the caterer tomorrow morning.'],
  [false, 'Honestly the coffee machine on the third floor has been broken for weeks.'],
  [true, "I've been running every morning before work, it helps with the stress of the launch."],
  [false, 'We should also think about the hiring plan and whether the design team needs another person.'],
  [true, 'Agreed. Let me draft the job description and share it with Marta on Monday.'],
];
function conv(words) { const segments = []; let c = 0; for (let i = 0; c < words; i++) { const [u, t] = LINES[i % 10]; segments.push({ speaker: u ? 'A' : 'B', isUser: u, text: t, start: i, end: i + 1 }); c += t.split(' ').length; } return { text: '', segments, startedAt: new Date('2026-03-04T14:00:00Z'), timezone: 'America/New_York', language: 'en', userName: 'S' }; }
createLocalEngine();
for (let round = 0; round < 8; round++) {
  const input = conv(10000);
  const t = (label, f) => { const s = performance.now(); const r = f(); console.log(label.padEnd(12), (performance.now() - s).toFixed(1)); return r; };
  const a = t('analysis', () => analysisOf(input));
  const c = t('category', () => categorize(a));
  t('title', () => buildTitle(a, c, 'en'));
  t('overview', () => buildOverview(a));
  t('events', () => extractEvents(input));
  t('items', () => extractActionItems(input, []));
  t('memories', () => extractMemories(input, []));
  console.log('sentences', a.sentences.length, 'turns', a.turns.length);
}
const eng = createLocalEngine();
for (let r = 0; r < 5; r++) {
  const input = conv(10000);
  const t0 = performance.now(); await eng.decideRelevance(input); const t1 = performance.now(); await eng.structure(input); const t2 = performance.now();
  await eng.extractActionItems(input, []); const t3 = performance.now(); await eng.extractMemories(input, []); const t4 = performance.now();
  console.log('relevance', (t1-t0).toFixed(1), 'structure', (t2-t1).toFixed(1), 'items', (t3-t2).toFixed(1), 'memories', (t4-t3).toFixed(1));
}
