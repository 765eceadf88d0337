import type { FactPattern } from './memory-patterns.js';

/**
 * The wearer's way of living said of oneself: a diet, a habit kept or given up, a week kept free of
 * work, what the body does every time. Read in order among the fact patterns of memory-patterns.ts.
 */
export const HABIT_PATTERNS: FactPattern[] = [
  {
    pattern: /^I(?:'m| am) (?:a )?(?:vegetarian|vegan|pescatarian|gluten-free|lactose intolerant|diabetic|sober)\b/i,
    category: 'lifestyle',
  },
  { pattern: /^I (?:don't|do not|never) (?:eat|drink|smoke|drive)\b/i, category: 'lifestyle' },
  // "I don't work weekends anymore", "I never work on Fridays": the week the wearer keeps.
  {
    pattern:
      /^I (?:don't|do not|never) work (?:on )?(?:weekends|nights|evenings|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)\b/i,
    category: 'work',
  },
  { pattern: /^I(?:'m| am) not \w+ing (?:\w+ )?anymore\b/i, category: 'lifestyle' },
  // "I get super carsick on mountain roads": what the body does, every time.
  {
    pattern:
      /^I (?:always |usually )?get (?:(?:super|really|very|so|quite) )?(?:carsick|seasick|airsick|travel sick|motion sickness|migraines|hay fever|cold sores|nosebleeds)\b/i,
    category: 'core',
  },
  // "ibuprofen upsets my stomach", "dairy gives me hives" (asWearer turns them round): what something does to the body.
  {
    pattern:
      /^I get (?:an upset stomach|an upset gut|irritated skin|(?:a |bad )?(?:migraines?|headaches?|hives|a rash|rashes|heartburn|reflux|gastritis|nausea|sick|ill|nauseous|bloated|itchy|dizzy)) from\b/i,
    category: 'core',
  },
  // "You're still not smoking?" "No, quit last year.": a habit given up and kept up.
  {
    pattern: /^I(?:'m| am) still not (?:smoking|drinking|vaping|gambling|eating (?:meat|sugar|dairy|gluten))\b/i,
    category: 'lifestyle',
  },
  // "I've stopped eating red meat", "I quit smoking in May", "I gave up sugar".
  {
    pattern:
      /^I(?:'ve| have)? (?:stopped|quit|given up|gave up|cut out) (?:\w+ing\b|the \w+|my \w+|coffee|alcohol|sugar|meat|red meat|caffeine|gluten|dairy|social media|instagram|facebook|tiktok)/i,
    category: 'lifestyle',
  },
];

// Milestones of a life and the time they are dated back to: "paid off the mortgage last year".
export const MILESTONE_VERBS = 'paid off|bought|sold|graduated|retired|quit|finished|passed|adopted';
export const MORE_MILESTONES = 'completed|opened|started|ran|won|lost|left';
export const DATED_BACK =
  '(?:last year|(?:a|one|two|three|four|five|six|seven|eight|nine|ten|\\d+|a few|many) years? ago|in (?:19|20)\\d\\d)\\b';
