import { cosineSimilarity } from '../vectors.js';

/** A port to an embedding model: texts in, one vector per text out (same order). */
export interface Embedder {
  readonly model: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export interface OpenAiEmbedderOptions {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  timeoutMs?: number;
}

/** `https://host` and `https://host/v1` both reach `…/v1/embeddings`. */
export function embeddingsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return /\/v1$/.test(base) ? `${base}/embeddings` : `${base}/v1/embeddings`;
}

export class EmbeddingError extends Error {}

/** An OpenAI-compatible `POST /v1/embeddings` server (OpenAI, Ollama, llama.cpp, vLLM, LocalAI, …). */
export class OpenAiEmbedder implements Embedder {
  readonly model: string;
  private readonly url: string;

  constructor(private readonly options: OpenAiEmbedderOptions) {
    this.model = options.model;
    this.url = embeddingsUrl(options.baseUrl);
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const response = await fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: this.model, input: texts }),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
    });
    if (!response.ok) throw new EmbeddingError(`embeddings server answered ${response.status}`);
    return parseEmbeddings(await response.json(), texts.length);
  }
}

/** `{data: [{index, embedding: number[]}]}` → vectors in input order; anything else is an error. */
function parseEmbeddings(body: unknown, expected: number): Float32Array[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== expected)
    throw new EmbeddingError('embeddings response has the wrong shape');
  const out: Float32Array[] = new Array(expected);
  data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
    const index = typeof item.index === 'number' ? item.index : position;
    if (
      !Array.isArray(item.embedding) ||
      index < 0 ||
      index >= expected ||
      item.embedding.some((x) => typeof x !== 'number')
    ) {
      throw new EmbeddingError('embeddings response has the wrong shape');
    }
    out[index] = Float32Array.from(item.embedding as number[]);
  });
  if (out.some((v) => v === undefined)) throw new EmbeddingError('embeddings response is missing items');
  return out;
}

/** Cosine similarity; 0 for vectors that cannot be compared (different lengths, a zero vector). */
export const cosine = (a: Float32Array, b: Float32Array): number => cosineSimilarity(a, b) ?? 0;

export const vectorToBuffer = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

export function bufferToVector(buffer: Buffer | Uint8Array): Float32Array {
  // Copy: the driver's buffer may not be 4-byte aligned.
  const copy = new Uint8Array(buffer.byteLength);
  copy.set(buffer);
  return new Float32Array(copy.buffer);
}
