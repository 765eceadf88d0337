import type { FactPattern } from './memory-patterns.js';

/**
 * What the wearer does for a living, said of oneself: the work, an employer now or before, an offer
 * got, going freelance. Read in order among the fact patterns of memory-patterns.ts.
 */
export const WORK_PATTERNS: FactPattern[] = [
  { pattern: /^I work\b/i, category: 'work' },
  // "I'm working as a lab technician", "I worked as a translator for years".
  {
    pattern: /^I(?:'m| am|'ve been| have been| was)? (?:now |currently |still |also )?work(?:ing|ed)? as an? \w+/i,
    category: 'work',
  },
  // "I make games for a living", "I got an offer from a fintech in Montevideo", "since I went freelance".
  { pattern: /^I (?:\w+ ){1,4}for a living\b/i, category: 'work' },
  {
    pattern:
      /^I (?:just |finally )?got (?:an offer|a job|the job|a position|a place|a contract) (?:from|at|with|in)\b/i,
    category: 'work',
  },
  { pattern: /^I (?:went|am|'m|have been|'ve been) (?:freelance|self-employed)\b/i, category: 'work' },
  // "I'm teaching data science at the university now": what the wearer does for a living these days.
  { pattern: /^I(?:'m| am) (?:now )?(?:teaching|lecturing|freelancing|consulting|nursing) \w+/i, category: 'work' },
  // A former employer or school: "Before that I was at Samsung SDI", "I was at Deloitte for six years".
  { pattern: /^I (?:was|worked|used to work) (?:at|for|with) \p{Lu}/u, category: 'work' },
];
