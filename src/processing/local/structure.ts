import type { ConversationCategory } from '../../domain/categories.js';
import type { Structure, TranscriptInput } from '../engine.js';
import { extractActionItems } from './action-items.js';
import { type Analysis, analysisOf } from './analysis.js';
import { classify } from './category.js';
import { extractEvents } from './events.js';
import { CATEGORY_EMOJI } from './lexicon.js';
import { buildOverview } from './overview.js';
import { otherParticipants } from './participants.js';
import { type Scene, sceneOf } from './setting.js';
import { buildTitle } from './summary.js';
import { titleTopics } from './title-model.js';
import { rankedTopics, type Topic } from './topics.js';

/** The one other person of a conversation the wearer spoke in, when they are known by name. */
function companion(analysis: Analysis, userName: string): string | null {
  if (!analysis.turns.some((turn) => turn.isUser)) return null;
  const { named, count } = otherParticipants(analysis, userName);
  return count === 1 && named.length === 1 ? named[0] : null;
}

/** The headline of a conversation from its ranked topics (the title model picks which to name). */
export function headline(
  analysis: Analysis,
  input: TranscriptInput,
  topics: Topic[],
  category: ConversationCategory,
  subject: ConversationCategory,
  /** the title model's weights; null names the topics as ranked (the trainer's baseline) */
  weights?: ReadonlyArray<number> | null,
  scene: Scene | undefined = sceneOf(analysis),
): string {
  const chosen = weights === null ? topics : titleTopics(topics, analysis, subject, weights);
  return buildTitle(analysis, chosen, category, input.language, companion(analysis, input.userName), scene);
}

/** Title, overview, category with its emoji, and dated events: the summary card of a conversation. */
export function buildStructure(input: TranscriptInput): Structure {
  const analysis = analysisOf(input);
  const { category, subject } = classify(analysis);
  // A headline names the subject, even when the conversation is filed under its setting.
  const topics = rankedTopics(analysis, subject, input.userName);
  const events = extractEvents(input);
  // The overview reports the user's commitments; recent items only matter for storing them.
  const actionItems = extractActionItems(input, []);
  const scene = sceneOf(analysis);
  const facts = { analysis, userName: input.userName, timezone: input.timezone, topics, actionItems, events, scene };
  return {
    title: headline(analysis, input, topics, category, subject, undefined, scene),
    overview: buildOverview(facts),
    category,
    emoji: CATEGORY_EMOJI[category],
    events,
  };
}
