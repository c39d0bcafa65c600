import type { ContractOperation } from '../contract/contract';
import type { ToolAnnotations } from './tool';

// The MCP annotations of an operation's tool: first from its HTTP method, as HTTP defines the
// methods (GET is safe; PUT and DELETE are idempotent and replace or remove what exists; POST
// adds), then corrected where the contract says an operation behaves otherwise.

const BY_METHOD: Record<ContractOperation['method'], Omit<ToolAnnotations, 'openWorldHint'>> = {
  GET: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  PUT: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  DELETE: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  POST: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
};

/** Operations the contract describes otherwise than their method says, and why. */
const BY_OPERATION: Readonly<Record<string, Partial<ToolAnnotations>>> = {
  // "Empties the account": a POST that erases, and a second reset finds nothing more to erase.
  resetAccount: { destructiveHint: true, idempotentHint: true },
  // "Enabling an enabled endpoint only resets the count."
  enableWebhook: { idempotentHint: true },
  // "Loading is idempotent": whatever exists is kept, only what is missing is added.
  loadFixtures: { idempotentHint: true },
};

/**
 * Control calls that reach beyond the sandbox: each makes delivery attempts to the endpoints'
 * receivers ("makes its first attempt before answering", "runs every delivery attempt that falls due").
 */
const REACHES_RECEIVERS: ReadonlySet<string> = new Set(['pingWebhook', 'redeliverDelivery', 'advanceClock']);

/**
 * The annotations of an operation's tool. Every service operation is open-world: pointed at the
 * service, it acts on a licensee's real records; a control call is not, unless it sends webhook
 * deliveries to receivers.
 */
export function annotationsOf(operation: ContractOperation): ToolAnnotations {
  const openWorldHint = operation.document === 'openapi.yaml' || REACHES_RECEIVERS.has(operation.operationId);
  return { ...BY_METHOD[operation.method], openWorldHint, ...BY_OPERATION[operation.operationId] };
}
