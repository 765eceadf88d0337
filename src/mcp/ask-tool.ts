import type { ApiClient } from '../cli/client/http.js';

/**
 * The `ask` tool: a question answered from the user's conversations with cited sources (POST
 * /v1/dev/user/ask). Self-contained so any MCP server wiring can list it beside the others.
 */
export const askTool = {
  name: 'ask',
  title: 'Ask about conversations',
  description:
    'Answers a natural-language question from the user\'s own recorded conversations ("what did I promise Maria last week?"), citing them as numbered sources with id, title and date. Relative dates are read in `timezone`.',
  inputSchema: {
    type: 'object',
    properties: {
      question: { type: 'string', minLength: 1, maxLength: 1000, description: 'the question, in plain words' },
      limit: { type: 'integer', minimum: 1, maximum: 10, default: 5, description: 'how many conversations to use' },
      timezone: { type: 'string', default: 'UTC', description: 'IANA zone for "yesterday", "last week", …' },
    },
    required: ['question'],
    additionalProperties: false,
  },
  scope: 'conversations:read' as const,
  readOnly: true,
  call: (api: ApiClient, args: Record<string, unknown>) => api.json('POST', '/v1/dev/user/ask', { body: args }),
};
