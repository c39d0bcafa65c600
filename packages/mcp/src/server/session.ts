import { type ApiAnswer, type ApiRequest, ToolCallError, type ToolContext } from '../tools/tool';
import { CredentialScrubber } from './credential-scrubber';
import { type HttpSender, sendOverNodeHttp } from './node-http-sender';

// One MCP session's view of the server it drives: the base URL, the token it acts with (which
// `create_account` changes), the `fetch` it sends with, whether the base URL is a sandbox, and
// the scrubber of its outputs. Every request a tool sends goes through `send()` here.

declare const __FFLKIT_MCP_VERSION__: string | undefined;

/** The version of `@fflkit/mcp` that runs, set by the build from package.json. */
export const MCP_VERSION: string = typeof __FFLKIT_MCP_VERSION__ === 'string' ? __FFLKIT_MCP_VERSION__ : '0.0.0-dev';

/** How long a request may wait for its answer unless told otherwise. */
const DEFAULT_TIMEOUT_MS = 30_000;

/** The two addresses of a base URL. */
export interface BaseUrl {
  /** The service API, ending in `/rest/v1`. */
  readonly apiUrl: string;
  /** Where `/rest/v1` and `/_sandbox` hang: the origin, with any path before `/rest/v1`. */
  readonly root: string;
}

/**
 * Reads a base URL: the service's address ending in `/rest/v1` (as the contract's servers give
 * it), or a sandbox's origin (`http://127.0.0.1:4010`), to which `/rest/v1` is added. Anything
 * else throws a `TypeError` saying what to give.
 */
export function readBaseUrl(given: string): BaseUrl {
  let url: URL | undefined;
  try {
    url = new URL(given);
  } catch {
    url = undefined;
  }
  const path = url?.pathname.replace(/\/+$/, '') ?? '';
  if (
    url === undefined ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== '' ||
    url.password !== '' ||
    (path !== '' && !path.endsWith('/rest/v1'))
  ) {
    throw new TypeError(
      `[@fflkit/mcp] the base URL must be the service's http(s) address ending in /rest/v1, such as http://127.0.0.1:4010/rest/v1 for a local sandbox (or its origin, http://127.0.0.1:4010), without a query or credentials; got ${JSON.stringify(given)}`,
    );
  }
  const root = `${url.origin}${path.replace(/\/rest\/v1$/, '')}`;
  return { apiUrl: `${root}/rest/v1`, root };
}

/** What a session starts from. */
export interface SessionOptions {
  readonly baseUrl: BaseUrl;
  readonly token: string | undefined;
  /** What requests are sent with; Node's HTTP client when absent (the global `fetch` then serves the tools that reach elsewhere). */
  readonly fetch?: typeof fetch | undefined;
  /** Whether the base URL is known to be a sandbox; `undefined` asks its `/_sandbox/health`. */
  readonly sandbox: boolean | undefined;
  readonly timeoutMs: number | undefined;
  /** Whether the server was started with `--allow-writes`. */
  readonly allowWrites?: boolean | undefined;
}

/** A session: the context every tool call runs in. */
export class LogbookSession implements ToolContext {
  readonly scrubber = new CredentialScrubber();
  readonly fetch: typeof fetch;
  readonly apiUrl: string;
  readonly #root: string;
  readonly #send: HttpSender;
  readonly #timeoutMs: number;
  readonly #allowWrites: boolean;
  #token: string | undefined;
  #sandbox: boolean | undefined;

  constructor(options: SessionOptions) {
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#send = options.fetch === undefined ? sendOverNodeHttp : senderOver(options.fetch);
    this.apiUrl = options.baseUrl.apiUrl;
    this.#root = options.baseUrl.root;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#token = options.token;
    this.#sandbox = options.sandbox;
    this.#allowWrites = options.allowWrites === true;
    if (options.token !== undefined) this.scrubber.remember(options.token);
  }

  /** Whether the session has a token to call with. */
  get hasToken(): boolean {
    return this.#token !== undefined;
  }

  get token(): string | undefined {
    return this.#token;
  }

  async writesAllowed(): Promise<boolean> {
    return this.#allowWrites || (await this.isSandbox());
  }

  conceal(credential: string): void {
    this.scrubber.remember(credential);
  }

  actAs(token: string): void {
    this.#token = token;
    this.scrubber.remember(token);
  }

  /**
   * Whether the base URL is a sandbox: its `GET /_sandbox/health` answers 200 with the sandbox's
   * `{"data": {"status": "ok", "version"}}`. A yes is kept; a no is asked again next time, so a
   * sandbox started after the session is found.
   */
  async isSandbox(): Promise<boolean> {
    if (this.#sandbox === true) return true;
    if (this.#sandbox === false) return false;
    try {
      const answer = await this.#send({
        method: 'GET',
        url: `${this.#root}/_sandbox/health`,
        headers: { accept: 'application/json' },
        timeoutMs: this.#timeoutMs,
      });
      const body =
        answer.status === 200
          ? (JSON.parse(answer.text) as { data?: { status?: unknown; version?: unknown } })
          : undefined;
      const healthy = body?.data?.status === 'ok' && typeof body.data.version === 'string';
      if (healthy) this.#sandbox = true;
      return healthy;
    } catch {
      return false;
    }
  }

  async send(request: ApiRequest): Promise<ApiAnswer> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `fflkit-mcp/${MCP_VERSION}` };
    if (!request.public) {
      if (this.#token === undefined) {
        throw new ToolCallError(
          'This session has no token: create_account makes a sandbox account and acts as it, or start fflkit-mcp with FFLKIT_TOKEN (or --token).',
        );
      }
      headers['authorization'] = `Bearer ${this.#token}`;
    }
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const query = new URLSearchParams(request.query as [string, string][] | undefined).toString();
    const url = `${this.#root}${request.path}${query === '' ? '' : `?${query}`}`;
    try {
      return await this.#send({
        method: request.method,
        url,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        timeoutMs: this.#timeoutMs,
      });
    } catch (error) {
      throw new ToolCallError(
        `${request.method} ${request.path} got no answer from ${this.#root} (${reasonOf(error)}): check that the server runs there; a sandbox prints its address when it starts.`,
      );
    }
  }
}

/** Sends with a given `fetch`, with the request's time-out, never following a redirect (which would carry the token elsewhere). */
function senderOver(send: typeof fetch): HttpSender {
  return async (request) => {
    const response = await send(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined && { body: request.body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
}

function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}
