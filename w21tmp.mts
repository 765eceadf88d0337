import { createLocalEngine } from './src/processing/local/index.ts';
import { analysisOf } from './src/processing/local/analysis.ts';
import { extractActionItems } from './src/processing/local/action-items.ts';
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
for (let round = 0; round < 15; round++) { const input = conv(10000); analysisOf(input); extractActionItems(input, []); }
