import type OpenAI from 'openai';
import type { Config } from '../../config.js';
import { openAiSdk } from './openai-sdk.js';

/** A small text-generation port for proactive notifications: one prompt in, the reply text out. */
export interface TextGenerator {
  readonly model: string;
  generateText(prompt: string): Promise<string>;
}

const TIMEOUT_MS = 20_000;

/** Any OpenAI-compatible chat API (LLM_BASE_URL); the SDK's own retries cover transient failures. */
export class OpenAiTextGenerator implements TextGenerator {
  private client: Promise<OpenAI> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string | null,
    readonly model: string,
  ) {}

  async generateText(prompt: string): Promise<string> {
    // Local servers often need no key; the SDK insists on one, so a placeholder is sent instead.
    this.client ??= openAiSdk().then(
      ({ default: OpenAI }) =>
        new OpenAI({ baseURL: this.baseUrl, apiKey: this.apiKey ?? 'not-needed', timeout: TIMEOUT_MS, maxRetries: 1 }),
    );
    const completion = await (await this.client).chat.completions.create({
      model: this.model,
      messages: [{ role: 'user', content: prompt }],
    });
    return completion.choices[0]?.message?.content?.trim() ?? '';
  }
}

/** The configured generator, or null without LLM_BASE_URL (callers skip and record; they never fake a reply). */
export function createTextGenerator(llm: Config['llm']): TextGenerator | null {
  return llm ? new OpenAiTextGenerator(llm.baseUrl, llm.apiKey, llm.model) : null;
}
