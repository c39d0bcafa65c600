import type {
  AuditEntry,
  Book,
  Receipt,
  ReceiptDocument,
  SandboxAccount,
  SandboxAccountCreate,
  SandboxClock,
  SandboxDelivery,
  SandboxDocumentCreate,
  SandboxE4473Put,
  SandboxFault,
  SandboxFaultCreate,
  SandboxFixtures,
  SandboxFixturesLoaded,
  SandboxHealth,
  SandboxLoggedRequest,
  SandboxReceiptBrowseQuery,
  SandboxReceiptExportQuery,
  SandboxReceiptPage,
  SandboxRequestFilter,
  SandboxRequestLog,
  SandboxRequestLogEntry,
  SandboxToken,
  SandboxTokenCreate,
  SandboxWebhookChaosPut,
  SandboxWebhookEndpointState,
  ServiceOperationId,
  WebhookEndpoint,
} from '@fflkit/types';
import type { ActivityEvent, CreatedAccount } from '@fflkit/sandbox-core';

// The typed client of the sandbox's control API (`/_sandbox`): what `connectSandbox()` and
// `startSandbox()` resolve to, the calls' input types, and the error a refused call rejects
// with. It speaks to the sandbox over HTTP only, so it works as well against a sandbox started
// in another process.

/** A new token: its record and the token itself, shown only here. */
export interface SandboxTokenCreated {
  readonly record: SandboxToken;
  readonly token: string;
}

/**
 * The sandbox's control API (`/_sandbox`, documented in `@fflkit/types/sandbox.yaml`) as typed calls.
 * Every call but `createAccount` acts on the account of the token it is given. A refused call
 * rejects with a {@link SandboxControlError}.
 *
 * @example
 * ```ts
 * import { connectSandbox, type SandboxControl } from '@fflkit/sandbox';
 *
 * const sandbox: SandboxControl = connectSandbox('http://127.0.0.1:4010');
 * const { token } = await sandbox.createAccount(); // a dealer with the book Main, and its token 'sbx_...'
 * const [latest] = await sandbox.deliveries.list(token); // newest first; undefined before any event
 * ```
 */
export interface SandboxControl {
  /** The origin, such as `http://127.0.0.1:4010`. */
  readonly url: string;
  /** The service API's base address: `url + '/rest/v1'`. */
  readonly apiUrl: string;
  /**
   * `GET /_sandbox/health`: `{ status: 'ok', version }` once the sandbox serves; rejects with
   * status `0` while nothing answers at the URL.
   */
  health(): Promise<SandboxHealth>;
  /** `POST /_sandbox/accounts`: an isolated account (a dealer unless told otherwise) and its token. */
  createAccount(options?: SandboxAccountCreate): Promise<CreatedAccount>;
  /**
   * `DELETE /_sandbox/account`: deletes the account of `token` with everything it owns; its
   * tokens get 401 from then on, and the sandbox can hold another account in its place.
   */
  deleteAccount(token: string): Promise<void>;
  /** `POST /_sandbox/reset`: empties the account, keeping its tokens, clock and request log. */
  reset(token: string): Promise<void>;
  readonly tokens: {
    /** `GET /_sandbox/tokens`: the account's tokens that are not revoked, in id order, never their values. */
    list(token: string): Promise<SandboxToken[]>;
    /** `POST /_sandbox/tokens`: another token of the account, with the given permissions. */
    create(token: string, input: SandboxTokenCreate): Promise<SandboxTokenCreated>;
    /** `DELETE /_sandbox/tokens/{id}`: revokes a token; the next request with it is a 401. */
    revoke(token: string, id: number): Promise<void>;
  };
  readonly books: {
    /** `GET /_sandbox/books`: the account's books with their counts, in id order; not counted by the rate limit. */
    list(token: string): Promise<Book[]>;
    /** `POST /_sandbox/books`: another book of the account. */
    create(token: string, name: string): Promise<Book>;
  };
  readonly clock: {
    /** `GET /_sandbox/clock`: the account's time and how far it is ahead of real time. */
    now(token: string): Promise<SandboxClock>;
    /**
     * `POST /_sandbox/clock/advance`: moves the account's clock forward by 1 to 31,536,000 seconds,
     * making every delivery attempt that falls due in the skipped time before it resolves.
     */
    advance(token: string, seconds: number): Promise<SandboxClock>;
  };
  readonly deliveries: {
    /** `GET /_sandbox/deliveries`: the account's webhook deliveries with their attempts, newest first. */
    list(token: string): Promise<SandboxDelivery[]>;
    /** `POST /_sandbox/deliveries/{id}/redeliver`: one more attempt of a delivery, now. */
    redeliver(token: string, id: string): Promise<SandboxDelivery>;
  };
  readonly webhooks: {
    /**
     * `GET /_sandbox/webhooks`: the account's endpoints in id order, each with its count of
     * consecutive failed attempts (the 10th disables it).
     */
    list(token: string): Promise<SandboxWebhookEndpointState[]>;
    /** `POST /_sandbox/webhooks/{id}/ping`: delivers a `ping` event to the endpoint, now. */
    ping(token: string, id: number): Promise<SandboxDelivery>;
    /** `POST /_sandbox/webhooks/{id}/enable`: re-enables an endpoint disabled after failures. */
    enable(token: string, id: number): Promise<WebhookEndpoint>;
    /**
     * `PUT /_sandbox/webhooks/{id}/chaos`: makes the endpoint's deliveries come in a shuffled
     * order (`reorder`), twice (`duplicate`) or late (`delay_ms`), drawn from `seed`; settings
     * left out are off. Resolves with the endpoint and its settings, the seed drawn included.
     *
     * @example
     * ```ts
     * import { connectSandbox } from '@fflkit/sandbox';
     *
     * const sandbox = connectSandbox('http://127.0.0.1:4010');
     * const { token } = await sandbox.createAccount();
     * const [endpoint] = await sandbox.webhooks.list(token);
     * const { chaos } = await sandbox.webhooks.setChaos(token, endpoint!.id, { reorder: { window: 4 }, duplicate: 1, seed: 5 });
     * chaos?.seed; // 5: the same seed and the same events give the same run
     * ```
     */
    setChaos(token: string, id: number, settings: SandboxWebhookChaosPut): Promise<SandboxWebhookEndpointState>;
    /** `DELETE /_sandbox/webhooks/{id}/chaos`: deliveries made from now on are sent as the service sends them. */
    clearChaos(token: string, id: number): Promise<void>;
  };
  readonly receipts: {
    /**
     * `GET /_sandbox/receipts`: a page of the account's receipts, by id, that match every filter
     * given (those of `GET /receipts` and `GET /search` together); `per_page` up to 1,000, 50 by
     * default. Not counted by the rate limit, nor written to the request log.
     */
    browse(token: string, query?: SandboxReceiptBrowseQuery): Promise<SandboxReceiptPage>;
    /**
     * `GET /_sandbox/receipts/export`: every receipt the same filters select, as the CSV text of
     * the bound book (RFC 4180, CRLF lines, the columns of 27 CFR 478.125(e) first), by book and
     * record number.
     */
    export(token: string, query?: SandboxReceiptExportQuery): Promise<string>;
    /** `GET /_sandbox/receipts/{id}/audit`: the receipt's audit trail, oldest first. */
    audit(token: string, id: number): Promise<AuditEntry[]>;
    /** `POST /_sandbox/receipts/{id}/documents`: attaches a document, as the service's web app does. */
    attachDocument(token: string, id: number, input: SandboxDocumentCreate): Promise<ReceiptDocument>;
    /** `PUT /_sandbox/receipts/{id}/e4473`: sets the receipt's E4473 data. */
    putE4473(token: string, id: number, input: SandboxE4473Put): Promise<Receipt>;
  };
  readonly fixtures: {
    /**
     * `POST /_sandbox/fixtures`: loads a fixtures file (parsed) through the API's rules, in one
     * change; a file with any fault rejects with a 422 whose body names each by its path in the
     * file. Needs no token: the file's tokens are the accounts'.
     */
    load(file: SandboxFixtures): Promise<SandboxFixturesLoaded>;
    /** `GET /_sandbox/fixtures`: the account of `token` as a fixtures file, with that token in it. */
    export(token: string): Promise<SandboxFixtures>;
  };
  readonly faults: {
    /**
     * `POST /_sandbox/faults`: a rule that fails the account's service API requests on purpose
     * (a status, a dropped connection or a delay; before or after acting; every time, `times`
     * times, or with a seeded `probability`). Both faces honour it alike; see `sandbox.yaml`.
     */
    add(token: string, rule: SandboxFaultCreate): Promise<SandboxFault>;
    /** `GET /_sandbox/faults`: the account's rules in id order, with how often each fired. */
    list(token: string): Promise<SandboxFault[]>;
    /** `DELETE /_sandbox/faults/{id}`: deletes one rule. */
    delete(token: string, id: number): Promise<void>;
    /** `DELETE /_sandbox/faults`: deletes every rule of the account. */
    clear(token: string): Promise<void>;
  };
  /**
   * `GET /_sandbox/requests`: the account's logged API requests that match `filter`, newest
   * first: `method`, `path`, `operation`, `status`, `from`, `to`, `faulted`, and `body`, a part
   * of the body (typed by `operation`) that each must hold. Rejects with a
   * {@link SandboxControlError} when the log dropped entries the filter could have matched (it
   * keeps 1,000 requests and 1 MiB per account), so that an assertion never counts a log cut
   * short: narrow it with `from`.
   */
  requests<O extends ServiceOperationId>(
    token: string,
    filter: SandboxRequestFilter<O> & { operation: O },
  ): Promise<SandboxLoggedRequest<O>[]>;
  requests(token: string, filter?: SandboxRequestFilter): Promise<SandboxRequestLogEntry[]>;
  /**
   * `GET /_sandbox/events`: the account's service API requests and webhook deliveries as they
   * happen (a delivery each time it is made and each time it is attempted), until `signal` is
   * aborted (the iteration then ends) or the sandbox stops (it ends too). Rejects with a
   * {@link SandboxControlError}: its status for a refused token, `0` when the connection is lost.
   *
   * @example
   * ```ts
   * import { connectSandbox } from '@fflkit/sandbox';
   *
   * const sandbox = connectSandbox('http://127.0.0.1:4010');
   * const { token } = await sandbox.createAccount();
   * const signal = AbortSignal.timeout(60_000); // follow for a minute
   * for await (const { event, data } of sandbox.events(token, { signal })) {
   *   if (event === 'request') console.log(data.method, data.path, data.status); // POST /rest/v1/receipts 201
   *   else console.log(data.event, data.state, data.attempts.length); // receipt.created succeeded 1
   * }
   * ```
   */
  events(token: string, options?: { signal?: AbortSignal | undefined }): AsyncIterable<ActivityEvent>;
}

/**
 * A call of the sandbox's control API that was not answered with success, or whose answer cannot
 * be trusted (a request log that dropped entries the filter could match, answered 200): carries
 * the status and the body (the contract's error body `{ message }`, plus `errors` for a 422).
 *
 * @example
 * ```ts
 * import { connectSandbox, SandboxControlError } from '@fflkit/sandbox';
 *
 * const sandbox = connectSandbox('http://127.0.0.1:4010');
 * const { token } = await sandbox.createAccount();
 * try {
 *   await sandbox.clock.advance(token, 0);
 * } catch (error) {
 *   if (error instanceof SandboxControlError) console.error(error.status, error.body); // 422 { message, errors: { seconds: [...] } }
 * }
 * ```
 */
export class SandboxControlError extends Error {
  override readonly name = 'SandboxControlError';
  /** The status answered; `0` when no answer came. */
  readonly status: number;
  /** The body answered, parsed when it was JSON. */
  readonly body: unknown;

  constructor(status: number, body: unknown, message: string, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
    this.body = body;
  }
}

/** Options of {@link connectSandbox}. */
export interface ConnectSandboxOptions {
  /** The `fetch` to call the control API with; defaults to the global one, looked up per call. */
  fetch?: typeof fetch | undefined;
}

/**
 * Typed calls of the control API of a sandbox that is already running, known by its origin: a
 * sandbox started by a vitest global setup and handed to test workers as a URL, or one started
 * with `pnpm start` or `fflkit-sandbox`.
 *
 * @example
 * ```ts
 * // a test file, beside a vitest global setup that ran startSandbox() and provided its url
 * import { connectSandbox } from '@fflkit/sandbox';
 * import { inject } from 'vitest';
 *
 * declare module 'vitest' {
 *   export interface ProvidedContext { sandboxUrl: string }
 * }
 *
 * const sandbox = connectSandbox(inject('sandboxUrl'));
 * const { token } = await sandbox.createAccount({ books: ['Consignment'] });
 * await sandbox.clock.advance(token, 60); // the first retry of a failed delivery falls due
 * const [delivery] = await sandbox.deliveries.list(token);
 * ```
 */
export function connectSandbox(url: string, options: ConnectSandboxOptions = {}): SandboxControl {
  const origin = readOrigin(url);

  /** Sends one control call; rejects with status 0 when nothing answers. */
  async function send(
    method: string,
    path: string,
    token: string | undefined,
    accept: string,
    body?: unknown,
  ): Promise<{ response: Response; text: string }> {
    const headers: Record<string, string> = { accept };
    if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const fetcher = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await fetcher(`${origin}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new SandboxControlError(
        0,
        undefined,
        `[@fflkit/sandbox] ${method} ${path}: no answer from ${origin}; is the sandbox running?`,
        { cause: error },
      );
    }
    const text = await response.text();
    if (!response.ok) {
      const parsed: unknown = text === '' ? undefined : parseJson(text);
      const message = (parsed as { message?: unknown } | undefined)?.message;
      throw new SandboxControlError(
        response.status,
        parsed,
        `[@fflkit/sandbox] ${method} ${path} answered ${response.status}: ${typeof message === 'string' ? message : text}`,
      );
    }
    return { response, text };
  }

  /** A control call answered with JSON (or nothing, for a 204). */
  async function call<T>(method: string, path: string, token: string | undefined, body?: unknown): Promise<T> {
    const { response, text } = await send(method, path, token, 'application/json', body);
    const parsed: unknown = text === '' ? undefined : parseJson(text);
    if (response.status !== 204 && (typeof parsed !== 'object' || parsed === null)) {
      throw notSandbox(method, path, response.status, parsed, 'JSON');
    }
    return parsed as T;
  }

  /** A control call answered with CSV text. */
  async function csv(path: string, token: string): Promise<string> {
    const { response, text } = await send('GET', path, token, 'text/csv');
    if (!/^text\/csv\s*(?:;|$)/i.test(response.headers.get('content-type') ?? '')) {
      throw notSandbox('GET', path, response.status, text, 'CSV');
    }
    return text;
  }

  function notSandbox(
    method: string,
    path: string,
    status: number,
    body: unknown,
    expected: string,
  ): SandboxControlError {
    return new SandboxControlError(
      status,
      body,
      `[@fflkit/sandbox] ${method} ${path} answered ${status} without ${expected}: is ${origin} a FFLKit sandbox?`,
    );
  }

  const data = async <T>(answer: Promise<{ data: T }>): Promise<T> => (await answer).data;

  /** Follows the event stream of `token`'s account, one parsed event at a time. */
  async function* follow(
    token: string,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ActivityEvent, void, undefined> {
    const path = '/_sandbox/events';
    const fetcher = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await fetcher(`${origin}${path}`, {
        headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
        signal: signal ?? null,
      });
    } catch (error) {
      if (signal?.aborted === true) return;
      throw new SandboxControlError(
        0,
        undefined,
        `[@fflkit/sandbox] GET ${path}: no answer from ${origin}; is the sandbox running?`,
        { cause: error },
      );
    }
    if (!response.ok || response.body === null) {
      const text = await response.text();
      const parsed: unknown = text === '' ? undefined : parseJson(text);
      const message = (parsed as { message?: unknown } | undefined)?.message;
      throw new SandboxControlError(
        response.status,
        parsed,
        `[@fflkit/sandbox] GET ${path} answered ${response.status}: ${typeof message === 'string' ? message : text}`,
      );
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<string>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (signal?.aborted === true) return;
          throw new SandboxControlError(
            0,
            undefined,
            `[@fflkit/sandbox] GET ${path}: the connection to ${origin} was lost`,
            { cause: error },
          );
        }
        if (chunk.done) return;
        buffered += chunk.value.replace(/\r\n?/g, '\n');
        for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
          const event = parseServerSentEvent(buffered.slice(0, end));
          buffered = buffered.slice(end + 2);
          if (event !== undefined) yield event;
        }
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  }

  return {
    url: origin,
    apiUrl: `${origin}/rest/v1`,
    health: () => data(call('GET', '/_sandbox/health', undefined)),
    async createAccount(input = {}) {
      const { data: account, token } = await call<{ data: SandboxAccount; token: string }>(
        'POST',
        '/_sandbox/accounts',
        undefined,
        input,
      );
      return { account, token };
    },
    deleteAccount: (token) => call('DELETE', '/_sandbox/account', token),
    reset: (token) => call('POST', '/_sandbox/reset', token),
    tokens: {
      list: (token) => data(call('GET', '/_sandbox/tokens', token)),
      async create(token, input) {
        const { data: record, token: created } = await call<{ data: SandboxToken; token: string }>(
          'POST',
          '/_sandbox/tokens',
          token,
          input,
        );
        return { record, token: created };
      },
      revoke: (token, id) => call('DELETE', `/_sandbox/tokens/${id}`, token),
    },
    books: {
      list: (token) => data(call('GET', '/_sandbox/books', token)),
      create: (token, name) => data(call('POST', '/_sandbox/books', token, { name })),
    },
    clock: {
      now: (token) => data(call('GET', '/_sandbox/clock', token)),
      advance: (token, seconds) => data(call('POST', '/_sandbox/clock/advance', token, { seconds })),
    },
    deliveries: {
      list: (token) => data(call('GET', '/_sandbox/deliveries', token)),
      redeliver: (token, id) => data(call('POST', `/_sandbox/deliveries/${encodeURIComponent(id)}/redeliver`, token)),
    },
    webhooks: {
      list: (token) => data(call('GET', '/_sandbox/webhooks', token)),
      ping: (token, id) => data(call('POST', `/_sandbox/webhooks/${id}/ping`, token)),
      enable: (token, id) => data(call('POST', `/_sandbox/webhooks/${id}/enable`, token)),
      setChaos: (token, id, settings) => data(call('PUT', `/_sandbox/webhooks/${id}/chaos`, token, settings)),
      clearChaos: (token, id) => call('DELETE', `/_sandbox/webhooks/${id}/chaos`, token),
    },
    receipts: {
      browse: (token, query) => call('GET', withQuery('/_sandbox/receipts', query), token),
      export: (token, query) => csv(withQuery('/_sandbox/receipts/export', query), token),
      audit: (token, id) => data(call('GET', `/_sandbox/receipts/${id}/audit`, token)),
      attachDocument: (token, id, input) => data(call('POST', `/_sandbox/receipts/${id}/documents`, token, input)),
      putE4473: (token, id, input) => data(call('PUT', `/_sandbox/receipts/${id}/e4473`, token, input)),
    },
    fixtures: {
      load: (file) => data(call('POST', '/_sandbox/fixtures', undefined, file)),
      export: (token) => call('GET', '/_sandbox/fixtures', token),
    },
    faults: {
      add: (token, rule) => data(call('POST', '/_sandbox/faults', token, rule)),
      list: (token) => data(call('GET', '/_sandbox/faults', token)),
      delete: (token, id) => call('DELETE', `/_sandbox/faults/${id}`, token),
      clear: (token) => call('DELETE', '/_sandbox/faults', token),
    },
    requests: (async (token: string, filter: Readonly<Record<string, unknown>> = {}) => {
      const path = withQuery('/_sandbox/requests', requestLogQuery(filter));
      const log = await call<SandboxRequestLog>('GET', path, token);
      if (log.truncated) {
        throw new SandboxControlError(
          200,
          log,
          `[@fflkit/sandbox] GET ${path}: the request log dropped entries this filter could match (it keeps 1,000 requests and 1 MiB per account; ${log.dropped} dropped so far), so a count of them would be short: pass from, a moment before the requests you assert on.`,
        );
      }
      return log.data;
    }) as SandboxControl['requests'],
    events: (token, { signal } = {}) => ({ [Symbol.asyncIterator]: () => follow(token, signal) }),
  };
}

/** The filters of `GET /_sandbox/requests` as query parameters: `body` as JSON text, the others as written. */
function requestLogQuery(filter: Readonly<Record<string, unknown>>): Record<string, string | undefined> {
  const query: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(filter)) {
    if (value !== undefined) query[name] = name === 'body' ? JSON.stringify(value) : String(value);
  }
  return query;
}

/**
 * One server-sent event of the sandbox's stream: its `event` name and its `data` as JSON;
 * `undefined` for a comment (the stream's keep-alive) or an event of a kind this client does
 * not know, so that a newer sandbox's events are skipped rather than misread.
 */
function parseServerSentEvent(block: string): ActivityEvent | undefined {
  let name = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  if ((name !== 'request' && name !== 'delivery') || data.length === 0) return undefined;
  return { event: name, data: JSON.parse(data.join('\n')) } as ActivityEvent;
}

/** `path` with the query's parameters that are given, encoded as a form encodes them. */
function withQuery(path: string, query: Readonly<Record<string, string | number | undefined>> = {}): string {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) parameters.append(name, String(value));
  const text = parameters.toString();
  return text === '' ? path : `${path}?${text}`;
}

/**
 * The origin a client uses to reach a server listening on `host` and `port`: a wildcard address
 * becomes the loopback address of its family, and an IPv6 address is bracketed.
 */
export function formatOrigin(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

function readOrigin(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new TypeError(
      `[@fflkit/sandbox] connectSandbox(): url must be the sandbox's http(s) origin, such as http://127.0.0.1:4010; got ${JSON.stringify(url)}`,
    );
  }
  return parsed.origin;
}

/** The JSON value of an answer's text; the text itself when it is not JSON, to show as it came. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
