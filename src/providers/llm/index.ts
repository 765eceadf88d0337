import OpenAI from 'openai';
import type { Config } from '../../config.js';

/** A small text-generation port for proactive notifications: one prompt in, the reply text out. */
export interface TextGenerator {
  readonly model: string;
  generateText(prompt: string): Promise<string>;
}

const TIMEOUT_MS = 20_000;

/** Any OpenAI-compatible chat API (LLM_BASE_URL); the SDK's own retries cover transient failures. */
export class OpenAiTextGenerator implements TextGenerator {
  private readonly client: OpenAI;

  constructor(
    baseUrl: string,
    apiKey: string | null,
    readonly model: string,
  ) {
    // Local servers often need no key; the SDK insists on one, so a placeholder is sent instead.
    this.client = new OpenAI({ baseURL: baseUrl, apiKey: apiKey ?? 'not-needed', timeout: TIMEOUT_MS, maxRetries: 1 });
  }

  async generateText(prompt: string): Promise<string> {
    const completion = await this.client.chat.completions.create({
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
