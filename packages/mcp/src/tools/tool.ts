import type { JsonObject } from '../contract/contract';

// What a tool is, what it may do while it runs, and what it answers. Tools know nothing of MCP
// transports or sessions: the server hands each call a context that sends requests with the
// session's token, and turns the outcome into an MCP tool result.

/** The MCP annotations every tool carries, all four stated. */
export interface ToolAnnotations {
  /** The tool changes nothing. */
  readonly readOnlyHint: boolean;
  /** The tool may change or erase what exists (only meaningful when it is not read-only). */
  readonly destructiveHint: boolean;
  /** Calling it again with the same arguments has no further effect. */
  readonly idempotentHint: boolean;
  /** It reaches beyond the sandbox: the service itself, or a webhook receiver. */
  readonly openWorldHint: boolean;
}

/**
 * Where a tool works: `service` tools call the service API (any base URL), `sandbox` tools the
 * sandbox's control API (listed only when the base URL is a sandbox).
 */
export type ToolScope = 'service' | 'sandbox';

/** A request a tool sends: a path from the server's origin (`/rest/v1/receipts/12`), its query and JSON body. */
export interface ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly query?: readonly (readonly [string, string])[] | undefined;
  /** The JSON body; `undefined` sends none. */
  readonly body?: unknown;
  /** Sent without the session's token (`security: []` in the contract). */
  readonly public?: boolean | undefined;
}

/** The answer to an {@link ApiRequest}. */
export interface ApiAnswer {
  readonly status: number;
  /** The answer's headers, read as `Headers.get` reads them. */
  readonly headers: Pick<Headers, 'get'>;
  /** The body as text (`''` when there is none). */
  readonly text: string;
}

/** What a tool may do while it runs. */
export interface ToolContext {
  /**
   * Sends a request to the server the session points at, with the session's token. Rejects
   * with a `ToolCallError` when no answer comes.
   */
  send(request: ApiRequest): Promise<ApiAnswer>;
  /** Makes the session's later calls act with `token` (the token of an account the call just made). */
  actAs(token: string): void;
  /** The `fetch` of the session, for a tool that reaches another address (a probe of another service). */
  readonly fetch: typeof fetch;
  /** The service API's base URL the session points at, ending in `/rest/v1`. */
  readonly apiUrl: string;
  /**
   * The token the session acts with, for a tool that hands it to a client of its own (the
   * conformance probe), which must send it to {@link ToolContext.apiUrl} only. The server
   * scrubs it from every output.
   */
  readonly token: string | undefined;
  /** Whether the session may write: its base URL is a sandbox, or the server was started with `--allow-writes`. */
  writesAllowed(): Promise<boolean>;
  /** Keeps a credential the call was given (a second token) out of every output of the session, as its own token is. */
  conceal(credential: string): void;
}

/** A tool's outcome, before the server scrubs it of credentials. */
export interface ToolOutcome {
  /** The texts of the result: the API's answer first, notes after it. */
  readonly texts: readonly string[];
  /** Whether the call failed (an error answer, or no answer): an MCP tool error. */
  readonly isError: boolean;
  /** Credentials this call created, which its output may show (every other is scrubbed). */
  readonly created?: readonly string[] | undefined;
}

/** A tool of the server. Extra tools (a probe, a workflow) take this same shape. */
export interface LogbookTool {
  /** The MCP tool name, snake_case: `create_receipt`. */
  readonly name: string;
  /** A few words for people: `Create a receipt`. */
  readonly title: string;
  /** What the tool does and when to call it, for the agent. */
  readonly description: string;
  /** The JSON Schema of the arguments: an object schema. */
  readonly inputSchema: JsonObject & { readonly type: 'object' };
  /** The annotations; read-only ones for a tool that writes only when the session allows it (see `writableAnnotations`). */
  readonly annotations: ToolAnnotations;
  /**
   * For a tool that writes only when the session allows writes and the call asks to: its
   * annotations where the session allows writes. Such a tool is listed everywhere, with
   * `annotations` where its writes are refused.
   */
  readonly writableAnnotations?: ToolAnnotations | undefined;
  readonly scope: ToolScope;
  /** Runs the tool; a `ToolCallError` becomes a tool error with its message. */
  call(args: Readonly<Record<string, unknown>>, context: ToolContext): Promise<ToolOutcome>;
}

/**
 * A call that cannot be made as asked (an argument missing or unknown), or that got no answer:
 * becomes a tool error whose text is the message, which says what to do.
 */
export class ToolCallError extends Error {
  override readonly name = 'ToolCallError';

  constructor(message: string) {
    super(`[@fflkit/mcp] ${message}`);
  }
}

/**
 * The outcome of an answer: a 2xx is the body as the API answered it; any other status is a tool
 * error carrying the contract's error body (a 422's `errors` by field), with what to do next.
 */
export function outcomeOf(request: ApiRequest, answer: ApiAnswer, created: readonly string[] = []): ToolOutcome {
  const call = `${request.method} ${request.path}`;
  if (answer.status >= 200 && answer.status < 300) {
    const text = answer.text === '' ? `${call} answered ${answer.status} with no content: done.` : answer.text;
    return { texts: [text], isError: false, created };
  }
  const retryAfter = answer.headers.get('retry-after');
  const hint = nextStep(answer.status, retryAfter);
  return {
    texts: [`${call} answered ${answer.status}: ${answer.text === '' ? '(no body)' : answer.text}`, hint],
    isError: true,
  };
}

function nextStep(status: number, retryAfter: string | null): string {
  if (status === 422) return 'Correct the arguments named in "errors" (each with its messages) and call again.';
  if (status === 401) return 'The token was refused: it is unknown, revoked, or its account was deleted.';
  if (status === 403) return 'The message says what is missing: a permission, an account type, or this host or origin.';
  if (status === 404)
    return 'Nothing of that id exists in this account (a deleted receipt is 404 too): list first to find ids.';
  if (status === 409) return 'The message says which limit was reached and what to free.';
  if (status === 429 || status === 503) {
    return `Call again${retryAfter === null ? ' later' : ` after ${retryAfter} seconds (Retry-After)`}.`;
  }
  if (status >= 500) {
    return 'The server failed this call: its message says why, and, for a fault rule of the sandbox, whether the change was made.';
  }
  return 'The message says what was wrong with the call.';
}
