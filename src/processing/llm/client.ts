import type OpenAI from 'openai';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { storableStrings } from '../../domain/text.js';
import { openAiSdk } from '../../providers/llm/openai-sdk.js';
import type { ChatPrompt } from '../prompts/context.js';
import { LlmStepError } from './errors.js';
import type { NamedSchema } from './schemas.js';

export interface JsonChatOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
}

/** "http://host:11434" → "http://host:11434/v1"; a URL that already has a path is used as given. */
export function normalizeBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.pathname === '' || url.pathname === '/') url.pathname = '/v1';
  return url.toString().replace(/\/+$/, '');
}

/** Some local servers wrap JSON in a markdown fence even when a schema is requested. */
function withoutFence(content: string): string {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  return fenced === null ? content : fenced[1];
}

function parseJson(content: string): unknown {
  try {
    return JSON.parse(withoutFence(content));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new LlmStepError('malformed_json', `model answer is not JSON: ${detail}`);
  }
}

/** Chat completions with a JSON-schema response format, validated against the same schema. */
export class JsonChat {
  private client: Promise<OpenAI> | undefined;

  constructor(private readonly options: JsonChatOptions) {
    normalizeBaseUrl(options.baseUrl); // a bad URL fails here, at configuration, not at the first call
  }

  private connect(): Promise<OpenAI> {
    this.client ??= openAiSdk().then(
      ({ default: OpenAI }) =>
        new OpenAI({
          baseURL: normalizeBaseUrl(this.options.baseUrl),
          // OpenAI-compatible local servers (Ollama, vLLM) take any key; the client insists on one.
          apiKey: this.options.apiKey ?? 'not-needed',
          timeout: this.options.timeoutMs,
          maxRetries: this.options.maxRetries,
        }),
    );
    return this.client;
  }

  async ask<T extends TSchema>(named: NamedSchema<T>, prompt: ChatPrompt): Promise<Static<T>> {
    const client = await this.connect();
    const completion = await client.chat.completions.create({
      model: this.options.model,
      temperature: 0,
      messages: [
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: named.name, strict: true, schema: named.schema as Record<string, unknown> },
      },
    });
    const message = completion.choices[0]?.message;
    if (message?.refusal) throw new LlmStepError('refusal', `model refused: ${message.refusal}`);
    const content = message?.content ?? '';
    if (content.trim() === '') throw new LlmStepError('empty_answer', 'model returned no content');
    // A model can answer "\u0000" or half a surrogate pair: neither may reach the database.
    const parsed = storableStrings(parseJson(content));
    if (!Value.Check(named.schema, parsed)) {
      const first = Value.Errors(named.schema, parsed)[0];
      const where = first === undefined ? '' : ` at ${first.instancePath || '/'}: ${first.message}`;
      throw new LlmStepError('schema_mismatch', `model answer does not match ${named.name}${where}`);
    }
    return parsed;
  }
}
