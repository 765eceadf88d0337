import type { Logger } from 'pino';
import type { Clock } from '../../context-types.js';
import { AppError } from '../../errors.js';
import type { TextGenerator } from '../../providers/llm/index.js';
import type { ConversationEmbeddingsRepository } from '../../store/repositories/conversation-embeddings.js';
import type { SearchRepository } from '../../store/repositories/search.js';
import type { ConversationsService } from '../conversations/service.js';
import type { Embedder } from '../search/embeddings.js';
import { describeWindow, isKnownTimezone, questionWindow, type TimeWindow } from './dates.js';
import { extractiveAnswer } from './extractive.js';
import { askPrompt } from './prompt.js';
import { type Retrieved, retrieveConversations } from './retrieval.js';
import { contentWords } from './words.js';

export interface AskInput {
  question: string;
  /** how many conversations to ground the answer on (1–10) */
  limit: number;
  /** IANA zone for relative dates in the question */
  timezone: string;
}

export interface AskSource {
  id: string;
  title: string;
  created_at: string | null;
}

export interface AskAnswer {
  answer: string;
  sources: AskSource[];
}

export interface AskDeps {
  search: Pick<SearchRepository, 'answerCandidates' | 'keptConversationsByIds' | 'terms'>;
  embeddings: ConversationEmbeddingsRepository;
  conversations: Pick<ConversationsService, 'present'>;
  embedder: Embedder | null;
  /** With an LLM the answer is written by it from the retrieved conversations; without, it is extracted. */
  generator: TextGenerator | null;
  clock: Clock;
  log: Logger;
}

const invalid = (field: string, msg: string) =>
  new AppError(422, [{ loc: ['body', field], msg: `Value error, ${msg}`, type: 'value_error' }]);

function nothingFound(window: TimeWindow | null, words: readonly string[], timezone: string): string {
  if (!window) return "I couldn't find anything about that in your conversations.";
  const days = describeWindow(window, timezone);
  return words.length > 0
    ? `I couldn't find anything about that in your conversations from ${days}.`
    : `I couldn't find any conversations from ${days}.`;
}

/** Answers a question from the user's own conversations, with the conversations it used as sources. */
export class AskService {
  constructor(private readonly deps: AskDeps) {}

  async ask(userId: string, input: AskInput): Promise<AskAnswer> {
    const question = input.question.trim();
    if (question === '') throw invalid('question', 'question must not be empty');
    if (!isKnownTimezone(input.timezone)) throw invalid('timezone', `${input.timezone} is not a valid IANA timezone`);
    const now = this.deps.clock.now();
    const window = questionWindow(question, now, input.timezone);
    const asked = (window?.phrases ?? []).reduce((rest, phrase) => rest.replace(phrase, ' '), question);
    const words = contentWords(this.deps.search.terms(asked));
    const retrieved = await retrieveConversations(this.deps, userId, { text: question, words, window }, input.limit);
    if (retrieved.length === 0) return { answer: nothingFound(window, words, input.timezone), sources: [] };
    const sources = retrieved.map(({ view }) => ({
      id: view.id,
      title: view.structured.title.trim() || 'Untitled conversation',
      created_at: view.created_at,
    }));
    const when = window ? describeWindow(window, input.timezone) : null;
    const written = await this.written(question, retrieved, now, input.timezone);
    return { answer: written ?? extractiveAnswer(question, words, retrieved, when), sources };
  }

  /** The LLM's answer, or null without one (or when it fails: the extracted answer is given instead). */
  private async written(question: string, retrieved: Retrieved[], now: number, timezone: string) {
    const generator = this.deps.generator;
    if (!generator) return null;
    try {
      const answer = (await generator.generateText(askPrompt(question, retrieved, now, timezone))).trim();
      return answer === '' ? null : answer;
    } catch (err) {
      this.deps.log.warn({ err, model: generator.model }, 'ask: the LLM failed; answering with extracted sentences');
      return null;
    }
  }
}
