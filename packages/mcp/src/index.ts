// The MCP server and its transports.
export { createLogbookMcpServer } from './server/logbook-mcp-server';
export type { LogbookMcpServerOptions } from './server/logbook-mcp-server';
export { createStreamableHttpHandler } from './server/streamable-http-handler';
export type { StreamableHttpHandler, StreamableHttpHandlerOptions } from './server/streamable-http-handler';

// The tools, for callers that add their own.
export { OPERATIONS_WITHOUT_TOOLS } from './tools/tool-catalog';
export { conformanceTool } from './tools/conformance-tool';
export type { JsonObject } from './contract/contract';
export type { ConformanceProbe, ConformanceProbeOptions, ConformanceProbeReport } from './tools/conformance-tool';
export { ToolCallError } from './tools/tool';
export type {
  ApiAnswer,
  ApiRequest,
  LogbookTool,
  ToolAnnotations,
  ToolContext,
  ToolOutcome,
  ToolScope,
} from './tools/tool';
