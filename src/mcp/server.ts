import type { Readable, Writable } from 'node:stream';
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { ClientError } from '../cli/client/errors.js';
import type { ApiClient } from '../cli/client/http.js';
import { JsonRpcPeer, type MethodHandler, type Params, RpcCode, RpcError } from './jsonrpc.js';
import { TOOLS, type ToolDefinition } from './tools.js';

/** Protocol revisions this server speaks, newest first; a client asking for another gets the newest. */
export const PROTOCOL_VERSIONS = ['2025-06-18', '2025-03-26', '2024-11-05'];
const VERSION = '0.1.0';

const addFormats = formats as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, useDefaults: true, strict: false }));
const validators = new Map<string, ValidateFunction>(TOOLS.map((t) => [t.name, ajv.compile(t.inputSchema)]));

interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  isError: boolean;
}

const textResult = (text: string, isError = false): ToolResult => ({ content: [{ type: 'text', text }], isError });

function describeTool(tool: ToolDefinition) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: { title: tool.title, readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: false },
  };
}

/**
 * The MCP methods over a developer key holding `scopes`: tools the key cannot use are not listed,
 * and calling one anyway is a tool error, never a request to the API (docs/mcp.md).
 */
export function mcpMethods(api: ApiClient, scopes: readonly string[]): Map<string, MethodHandler> {
  const allowed = TOOLS.filter((t) => scopes.includes(t.scope));
  const methods = new Map<string, MethodHandler>();
  methods.set('initialize', async (params: Params) => ({
    protocolVersion: PROTOCOL_VERSIONS.includes(String(params.protocolVersion))
      ? params.protocolVersion
      : PROTOCOL_VERSIONS[0],
    capabilities: { tools: { listChanged: false } },
    serverInfo: { name: 'keepsake', title: 'Keepsake', version: VERSION },
    instructions:
      "Tools over the user's Keepsake data: recorded conversations (with transcripts), remembered facts (memories) and action items. Search before listing when looking for something specific.",
  }));
  methods.set('notifications/initialized', async () => undefined);
  methods.set('notifications/cancelled', async () => undefined);
  methods.set('ping', async () => ({}));
  methods.set('tools/list', async () => ({ tools: allowed.map(describeTool) }));
  methods.set('tools/call', async (params: Params) => callTool(api, scopes, params));
  return methods;
}

async function callTool(api: ApiClient, scopes: readonly string[], params: Params): Promise<ToolResult> {
  const tool = TOOLS.find((t) => t.name === params.name);
  if (!tool) throw new RpcError(RpcCode.invalidParams, `Unknown tool: ${String(params.name)}`);
  if (!scopes.includes(tool.scope))
    return textResult(`This developer key lacks the scope ${tool.scope} that ${tool.name} needs.`, true);
  const args = structuredClone(
    typeof params.arguments === 'object' && params.arguments !== null ? params.arguments : {},
  ) as Record<string, unknown>;
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

/** Serves MCP on the given streams until the input closes. */
export async function serveMcp(
  api: ApiClient,
  scopes: readonly string[],
  input: Readable,
  output: Writable,
  log: (message: string) => void,
): Promise<void> {
  await new JsonRpcPeer(mcpMethods(api, scopes), output, log).serve(input);
}
