import { openAiSdkIfLoaded } from '../../providers/llm/openai-sdk.js';

/** Why a step could not use the model's answer; the text is what onFallback and the logs receive. */
export class LlmStepError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'LlmStepError';
  }
}

/** Maps whatever the client threw to a short, stable reason (timeout, http_500, malformed_json, …). */
export function fallbackReason(error: unknown): string {
  if (error instanceof LlmStepError) return error.reason;
  // The client parses the HTTP body itself; a 200 that is not JSON surfaces as a SyntaxError.
  if (error instanceof SyntaxError) return 'malformed_json';
  const sdk = openAiSdkIfLoaded();
  if (sdk && error instanceof sdk.APIConnectionTimeoutError) return 'timeout';
  if (sdk && error instanceof sdk.APIConnectionError) return 'connection_error';
  if (sdk && error instanceof sdk.APIError) return error.status === undefined ? 'http_error' : `http_${error.status}`;
  if (error instanceof Error && error.name === 'AbortError') return 'timeout';
  return 'unexpected_error';
}
