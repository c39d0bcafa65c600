import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { loadContract } from '../contract/contract';
import { buildToolCatalog } from '../tools/tool-catalog';
import { type LogbookTool, ToolCallError } from '../tools/tool';
import { listResources, ResourceReadError, readResource } from './resources';
import { LogbookSession, MCP_VERSION, readBaseUrl } from './session';

// The MCP server of one session: `tools/list` answers the tools the write guard lets the
// session see, `tools/call` runs one and scrubs its output of credentials, and the resources
// are the contract's. The same server runs over stdio (`fflkit-mcp`), over Streamable HTTP (the
// sandbox's `/_sandbox/mcp`) and over any transport a caller connects it to.

/** Options of {@link createLogbookMcpServer}. */
export interface LogbookMcpServerOptions {
  /**
   * The service's base URL, ending in `/rest/v1` (`http://127.0.0.1:4010/rest/v1` for a local
   * sandbox), or a sandbox's origin.
   */
  baseUrl: string;
  /** The token the session starts with; without one, only `create_account` and `load_fixtures` work until an account is made. */
  token?: string | undefined;
  /**
   * The `fetch` every request is sent with; by default Node's HTTP client sends the session's
   * requests, and the global `fetch` those of a tool that reaches another address.
   */
  fetch?: typeof fetch | undefined;
  /** Lists the tools that write even when the base URL is not a sandbox (`--allow-writes`). */
  allowWrites?: boolean | undefined;
  /**
   * Whether the base URL is a sandbox; by default its `GET /_sandbox/health` says. The sandbox's
   * own endpoint knows.
   */
  sandbox?: boolean | undefined;
  /** Tools to add to the contract's (a conformance probe, a workflow): see {@link LogbookTool}. */
  extraTools?: readonly LogbookTool[] | undefined;
  /** How long each request may wait for its answer, in milliseconds; 30 s by default. */
  timeoutMs?: number | undefined;
  /** The source of `trigger_event`'s serial numbers; random by default. */
  randomSuffix?: (() => string) | undefined;
}

const INSTRUCTIONS = `Tools of the Firearms Acquisition and Disposition Logbook Service, derived from FFLKit's contract: one per operation of the service API (receipts, dispositions, books, inventory, search, webhook endpoints) and, on an FFLKit sandbox, one per control call (accounts, the clock, deliveries, faults, fixtures, the request log).
Every record is a compliance record under 27 CFR 478: read the resource fflkit://rules/records before writing one. A 422 comes back as a tool error whose "errors" names each field to correct.
When the base URL is not a sandbox, only read-only tools are listed, unless the server was started with --allow-writes.
No answer shows a token or a webhook secret (they read [redacted]) but the one the call itself created, once.`;

/**
 * Makes the MCP server of one session over the contract's tools, not yet connected: connect it
 * to a transport (stdio, Streamable HTTP, in memory). A base URL that cannot be one throws a
 * `TypeError`.
 *
 * @example
 * ```ts
 * import { createLogbookMcpServer } from '@fflkit/mcp';
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 *
 * const server = createLogbookMcpServer({ baseUrl: 'http://127.0.0.1:4010/rest/v1', token: process.env['FFLKIT_TOKEN'] });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createLogbookMcpServer(options: LogbookMcpServerOptions): Server {
  const contract = loadContract();
  // The catalog holds no state of a session: one serves every session that adds nothing to it.
  const tools =
    options.extraTools === undefined && options.randomSuffix === undefined
      ? (sharedCatalog ??= buildToolCatalog(contract))
      : buildToolCatalog(contract, { extraTools: options.extraTools, randomSuffix: options.randomSuffix });
  const session = new LogbookSession({
    baseUrl: readBaseUrl(options.baseUrl),
    token: options.token,
    fetch: options.fetch,
    sandbox: options.sandbox,
    timeoutMs: options.timeoutMs,
    allowWrites: options.allowWrites,
  });
  const server = new Server(
    { name: 'fflkit', title: 'FFLKit Logbook', version: MCP_VERSION },
    { capabilities: { tools: { listChanged: true }, resources: {} }, instructions: INSTRUCTIONS },
  );

  /** Why a tool is not listed for this session; `undefined` when it is. */
  const hiddenBecause = async (tool: LogbookTool): Promise<string | undefined> => {
    if (await session.isSandbox()) return undefined;
    if (tool.scope === 'sandbox') {
      return `${tool.name} is a call of the FFLKit sandbox, and ${session.apiUrl} is not one (its /_sandbox/health does not answer as a sandbox).`;
    }
    if (tool.annotations.readOnlyHint || (await session.writesAllowed())) return undefined;
    return `${tool.name} writes, and ${session.apiUrl} is not an FFLKit sandbox: only read-only tools are listed there. Start fflkit-mcp with --allow-writes to write to that service.`;
  };

  let listedSandbox: boolean | undefined;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const listed: Tool[] = [];
    const writable = await session.writesAllowed();
    for (const tool of tools.values()) {
      if ((await hiddenBecause(tool)) === undefined) listed.push(toolEntry(tool, writable));
    }
    listedSandbox = await session.isSandbox();
    return { tools: listed };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    const tool = tools.get(name);
    if (tool === undefined)
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${name}: tools/list names every tool.`);
    const hidden = await hiddenBecause(tool);
    // A sandbox found since the last listing: the client learns that more tools are listed.
    if (listedSandbox === false && (await session.isSandbox())) {
      listedSandbox = true;
      server.sendToolListChanged().catch(() => undefined);
    }
    if (hidden !== undefined) return { content: [{ type: 'text', text: hidden }], isError: true };
    try {
      const outcome = await tool.call(args, session);
      return {
        content: outcome.texts.map((text) => ({ type: 'text', text: session.scrubber.scrub(text, outcome.created) })),
        isError: outcome.isError,
      };
    } catch (error) {
      // Whatever failed, the agent gets a tool error it can read, scrubbed like any output.
      const message =
        error instanceof ToolCallError
          ? error.message
          : `[@fflkit/mcp] ${name} failed: ${error instanceof Error ? error.message : String(error)}`;
      return { content: [{ type: 'text', text: session.scrubber.scrub(message) }], isError: true };
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: listResources(await session.isSandbox()),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      return { contents: [await readResource(request.params.uri, session, contract)] };
    } catch (error) {
      if (error instanceof ResourceReadError)
        throw new McpError(RESOURCE_NOT_FOUND, session.scrubber.scrub(error.message));
      const message = error instanceof Error ? error.message : String(error);
      throw new McpError(ErrorCode.InternalError, session.scrubber.scrub(message));
    }
  });
  return server;
}

let sharedCatalog: ReadonlyMap<string, LogbookTool> | undefined;

/** The JSON-RPC error code the MCP specification gives an unknown resource. */
const RESOURCE_NOT_FOUND = -32002;

/** A tool as `tools/list` names it; `writable` when the session allows writes. */
function toolEntry(tool: LogbookTool, writable: boolean): Tool {
  const annotations = (writable ? tool.writableAnnotations : undefined) ?? tool.annotations;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: { title: tool.title, ...annotations },
  };
}
