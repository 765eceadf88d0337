import type { Structure, TranscriptInput } from '../engine.js';
import { analysisOf } from './analysis.js';
import { categorize } from './category.js';
import { extractEvents } from './events.js';
import { CATEGORY_EMOJI } from './lexicon.js';
import { buildOverview, buildTitle } from './summary.js';

/** Title, overview, category with its emoji, and dated events: the summary card of a conversation. */
export function buildStructure(input: TranscriptInput): Structure {
  const analysis = analysisOf(input);
  const category = categorize(analysis);
  return {
    title: buildTitle(analysis, category, input.language),
    overview: buildOverview(analysis),
    category,
    emoji: CATEGORY_EMOJI[category],
    events: extractEvents(input),
  };
}
