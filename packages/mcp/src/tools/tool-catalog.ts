import type { Contract } from '../contract/contract';
import { type AfterSuccess, operationTool } from './operation-tool';
import type { LogbookTool } from './tool';
import { triggerEventTool } from './trigger-event';

// Which tools the server has: one per operation of the contract, but the few operations of
// sandbox.yaml that another tool already covers or that a tool cannot serve, each with its
// reason; the workflow tools built on them; and the extra tools a caller adds.

/**
 * The operations of the contract that have no tool, and why. Every other operation has one:
 * a test fails when an operation is added to the contract without a tool or a reason here.
 */
export const OPERATIONS_WITHOUT_TOOLS: Readonly<Record<string, string>> = {
  getHealth: 'The server reads it itself, to tell a sandbox from the service.',
  followAccount: 'An event stream that never ends: list_requests and list_deliveries answer the same events.',
  listControlBooks: "The console's copy of listBooks: list_books answers the same books.",
  viewReceipt: "The console's copy of getReceipt: get_receipt answers the same receipt.",
  browseReceipts:
    "The console's search of listReceipts and searchReceipts together: list_receipts and search_receipts.",
  addWebhookEndpoint: "The dashboard's copy of createWebhook: create_webhook makes the same endpoint.",
  deleteWebhookEndpoint: "The dashboard's copy of deleteWebhook: delete_webhook deletes the same endpoint.",
  postMcpMessage: 'The MCP endpoint itself.',
  endMcpSession: 'The MCP endpoint itself.',
};

/** After `create_account`, the session acts as the new account: the agent goes on in it without a token of its own. */
const actAsCreatedAccount: AfterSuccess = (answer, context) => {
  const { data, token } = answer as { data?: { id?: unknown; name?: unknown }; token?: unknown };
  if (typeof token !== 'string') return undefined;
  context.actAs(token);
  return `This session now acts as account ${String(data?.id)} (${String(data?.name)}): every later call uses the token above. Reconnect to go back to the account the session began with.`;
};

const AFTER_SUCCESS: Readonly<Record<string, AfterSuccess>> = { createAccount: actAsCreatedAccount };

/** What the server does otherwise than the operation alone, said in the tool's description. */
const SESSION_NOTES: Readonly<Record<string, string>> = {
  createAccount: 'This session then acts as the new account: every later call uses its token.',
  exportFixtures:
    'Tokens and webhook secrets in the file read [redacted]: put fixed ones of your own (sbx_..., whsec_...) before loading it.',
};

/** Options of {@link buildToolCatalog}. */
export interface ToolCatalogOptions {
  /** Tools to add (such as a conformance probe); a name that is taken already is refused. */
  readonly extraTools?: readonly LogbookTool[] | undefined;
  /** Where the names of `trigger_event`'s receipts come from; random by default. */
  readonly randomSuffix?: (() => string) | undefined;
}

/**
 * Every tool of the server, by name: the contract's operations (but {@link OPERATIONS_WITHOUT_TOOLS}),
 * `trigger_event`, then the extra tools.
 */
export function buildToolCatalog(
  contract: Contract,
  options: ToolCatalogOptions = {},
): ReadonlyMap<string, LogbookTool> {
  const tools = new Map<string, LogbookTool>();
  const add = (tool: LogbookTool): void => {
    if (tools.has(tool.name)) {
      throw new TypeError(`[@fflkit/mcp] two tools are named ${tool.name}: give the extra tool another name`);
    }
    tools.set(tool.name, tool);
  };
  for (const operation of contract.operations) {
    if (operation.operationId in OPERATIONS_WITHOUT_TOOLS) continue;
    const tool = operationTool(operation, AFTER_SUCCESS[operation.operationId]);
    const note = SESSION_NOTES[operation.operationId];
    add(note === undefined ? tool : { ...tool, description: `${tool.description}\n\n${note}` });
  }
  add(triggerEventTool(contract, tools, options.randomSuffix));
  for (const tool of options.extraTools ?? []) add(tool);
  return tools;
}
