import type {
  ExistingActionItem,
  ExtractedActionItem,
  ExtractedMemory,
  RelevanceDecision,
  Structure,
  TextEngine,
  TranscriptInput,
} from '../engine.js';
import { extractActionItems } from './action-items.js';
import { analysisOf, plainText } from './analysis.js';
import { extractMemories } from './memories.js';
import { loadNlp } from './nlp.js';
import { preloadNounKinds } from './noun-kinds.js';
import { decideByPresence } from './presence.js';
import { decideByRules } from './relevance.js';
import { localModelKeeps, localModelKeepsNonLatin } from './relevance-model.js';
import { buildStructure } from './structure.js';
import { preloadTopicLexicon } from './topic-lexicon.js';

export { decideByRules, RULES_VERSION } from './relevance.js';

/** The offline engine: deterministic rules and wink-nlp/chrono-node heuristics, no network. */
export class LocalEngine implements TextEngine {
  readonly name = 'local';

  constructor() {
    loadNlp();
    preloadTopicLexicon();
    preloadNounKinds();
  }

  async decideRelevance(input: TranscriptInput): Promise<RelevanceDecision> {
    const analysis = analysisOf(input);
    const text = plainText(analysis);
    const presence = decideByPresence(analysis, input.userName, text);
    const rules = presence.verdict === 'undecided' ? decideByRules(text) : presence;
    if (rules.verdict !== 'undecided') return { verdict: rules.verdict, decidedBy: 'rule', reason: rules.reason };
    const keep = rules.reason === 'non_latin_content' ? localModelKeepsNonLatin(text) : localModelKeeps(input);
    return { verdict: keep ? 'keep' : 'discard', decidedBy: 'model', reason: rules.reason };
  }

  async structure(input: TranscriptInput): Promise<Structure> {
    return buildStructure(input);
  }

  async extractActionItems(input: TranscriptInput, recent: ExistingActionItem[]): Promise<ExtractedActionItem[]> {
    return extractActionItems(input, recent);
  }

  async extractMemories(
    input: TranscriptInput,
    existing: ReadonlyArray<{ content: string }>,
  ): Promise<ExtractedMemory[]> {
    return extractMemories(input, existing);
  }
}

export function createLocalEngine(): TextEngine {
  return new LocalEngine();
}
