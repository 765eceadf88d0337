import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { ClientError } from '../cli/client/errors.js';
import type { ApiClient } from '../cli/client/http.js';
import { TOOLS, type ToolDefinition } from './tools.js';

/** Protocol revisions this server speaks, newest first; a client asking for another gets the newest. */
export const PROTOCOL_VERSIONS = ['2025-06-18', '2025-03-26', '2024-11-05'];
const SERVER_INFO = { name: 'keepsake', title: 'Keepsake', version: '0.1.0' };
const CAPABILITIES = { tools: { listChanged: false } };
const INSTRUCTIONS =
  "Tools over the user's Keepsake data: recorded conversations (with transcripts), remembered facts (memories) and action items. Search before listing when looking for something specific.";

// As before the SDK: a client re-initializing with only a protocolVersion still gets the negotiation.
const LenientInitializeSchema = InitializeRequestSchema.extend({
  params: InitializeRequestSchema.shape.params.partial(),
});

const addFormats = formats as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, useDefaults: true, strict: false }));
const validators = new Map<string, ValidateFunction>(TOOLS.map((t) => [t.name, ajv.compile(t.inputSchema)]));

const textResult = (text: string, isError = false): CallToolResult => ({ content: [{ type: 'text', text }], isError });

function describeTool(tool: ToolDefinition) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as { type: 'object' },
    annotations: { title: tool.title, readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: false },
  };
}

/**
 * The MCP server (the official SDK) over a developer key holding `scopes`: tools the key cannot use
 * are not listed, and calling one anyway is a tool error, never a request to the API (docs/mcp.md).
 */
export function createMcpServer(api: ApiClient, scopes: readonly string[], log: (message: string) => void): Server {
  const allowed = TOOLS.filter((t) => scopes.includes(t.scope));
  const server = new Server(SERVER_INFO, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS });
  // The SDK would offer its own newest revision; this server offers the ones docs/mcp.md lists.
  server.setRequestHandler(LenientInitializeSchema, ({ params }) => ({
    protocolVersion:
      params.protocolVersion && PROTOCOL_VERSIONS.includes(params.protocolVersion)
        ? params.protocolVersion
        : PROTOCOL_VERSIONS[0],
    capabilities: CAPABILITIES,
    serverInfo: SERVER_INFO,
    instructions: INSTRUCTIONS,
  }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: allowed.map(describeTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      return await callTool(api, scopes, request.params.name, request.params.arguments ?? {});
    } catch (err) {
      if (!(err instanceof McpError)) log(`mcp: tools/call failed: ${err instanceof Error ? err.stack : String(err)}`);
      throw err;
    }
  });
  return server;
}

async function callTool(
  api: ApiClient,
  scopes: readonly string[],
  name: string,
  given: Record<string, unknown>,
): Promise<CallToolResult> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  if (!scopes.includes(tool.scope))
    return textResult(`This developer key lacks the scope ${tool.scope} that ${tool.name} needs.`, true);
  const args = structuredClone(given);
  const validate = validators.get(tool.name);
  if (validate && !validate(args)) {
    const problems = (validate.errors ?? []).map(
      (e) => `${e.instancePath || 'arguments'} ${e.message ?? 'is invalid'}`,
    );
    return textResult(`Invalid arguments: ${problems.join('; ')}`, true);
  }
  try {
    return textResult(JSON.stringify(await tool.call(api, args)));
  } catch (err) {
    // API failures (404, 403, 429, …) are results the model can read and act on.
    if (err instanceof ClientError) return textResult(err.message, true);
    throw err;
  }
}

/**
 * The SDK's stdio transport drops a line it cannot read; JSON-RPC 2.0 §5.1 answers it (id null):
 * -32700 for text that is not JSON, -32600 for JSON that is not a JSON-RPC message.
 */
function answerUnreadable(error: Error, output: Writable, log: (message: string) => void): void {
  const code =
    error instanceof SyntaxError ? ErrorCode.ParseError : error.name === 'ZodError' ? ErrorCode.InvalidRequest : null;
  if (code === null) {
    log(`mcp: ${error.message}`);
    return;
  }
  const message = code === ErrorCode.ParseError ? 'Parse error' : 'Invalid Request';
  output.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } })}\n`);
}

/** Serves MCP on the given streams until the input closes (answers still being computed are sent). */
export async function serveMcp(
  api: ApiClient,
  scopes: readonly string[],
  input: Readable,
  output: Writable,
  log: (message: string) => void,
): Promise<void> {
  const server = createMcpServer(api, scopes, log);
  server.onerror = (error) => answerUnreadable(error, output, log);
  const ended = once(input, 'end');
  await server.connect(new StdioServerTransport(input, output));
  await ended;
}
