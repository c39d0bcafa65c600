import type { SandboxPaths } from '@fflkit/types';

// The typed client of the sandbox's control API (`/_sandbox`): one call per path and method of
// sandbox.yaml, its parameters, body and success typed from the generated `SandboxPaths`, sent
// through a pluggable `send`. Over `fetch` it calls a running sandbox (`connectSandbox()`, the
// console); over a core it answers in process (the MSW mock). It imports nothing but the types,
// so that a browser bundle that uses it carries nothing else.

/** The methods of the control API. */
export type ControlMethod = 'get' | 'post' | 'put' | 'delete';

/** The control API's paths that take `method`, as sandbox.yaml writes them: `/_sandbox/webhooks/{id}/ping`. */
export type ControlPath<M extends ControlMethod> = {
  [P in keyof SandboxPaths]: [NonNullable<SandboxPaths[P][M]>] extends [never] ? never : P;
}[keyof SandboxPaths];

/** The operation of sandbox.yaml at a path and method, as openapi-typescript generated it. */
type Operation<M extends ControlMethod, P extends ControlPath<M>> = NonNullable<SandboxPaths[P][M]>;

/** The path parameters of an operation; `undefined` when its path has none. */
type PathParameters<O> = O extends { parameters: { path: infer T } } ? T : undefined;

/** The query parameters of an operation; `never` when it takes none. */
type QueryParameters<O> = O extends { parameters: { query?: infer Q } } ? Exclude<Q, undefined> : never;

/** The JSON body an operation takes; `never` when it takes none. */
type RequestBody<O> = O extends { requestBody?: infer B }
  ? NonNullable<B> extends { content: { 'application/json': infer J } }
    ? J
    : never
  : never;

/** What an operation answers on success: its JSON body, a CSV export's text, or `undefined` for a 204. */
export type ControlSuccess<O> = O extends { responses: infer R }
  ? {
      [S in keyof R]: S extends 200 | 201
        ? R[S] extends { content: infer C }
          ? C[keyof C]
          : undefined
        : S extends 204
          ? undefined
          : never;
    }[keyof R]
  : never;

/** The options of one call: the account's token, and the parameters and body the operation takes. */
export type ControlCallOptions<O> = {
  /** The token of the account the call acts on; none for the calls that need none. */
  readonly token?: string | undefined;
} & (PathParameters<O> extends undefined ? { readonly path?: undefined } : { readonly path: PathParameters<O> }) &
  ([QueryParameters<O>] extends [never]
    ? { readonly query?: undefined }
    : {
        readonly query?: { readonly [K in keyof QueryParameters<O>]?: QueryParameters<O>[K] | undefined } | undefined;
      }) &
  ([RequestBody<O>] extends [never]
    ? { readonly body?: undefined }
    : O extends { requestBody: unknown }
      ? { readonly body: RequestBody<O> }
      : { readonly body?: RequestBody<O> | undefined });

/** The request a call sends: the shape of the core's own `SandboxRequest`. */
export interface ControlRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path with its parameters in place, percent-encoded. */
  readonly path: string;
  /** The query string without `?`; `''` without one. */
  readonly query: string;
  /** Lower-case header names: `accept`, and `authorization` and `content-type` when they apply. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON text of the body; `undefined` without one. */
  readonly body: string | undefined;
}

/** What a call was answered. */
export interface ControlAnswer {
  readonly status: number;
  /** The headers, by lower-case name. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body: parsed when it is JSON, the text otherwise; `undefined` without one. */
  readonly body: unknown;
}

/** A success as {@link ControlClient.answer} gives it: the body and the headers. */
export interface ControlSuccessAnswer<T> {
  readonly body: T;
  /** The headers, by lower-case name (a CSV export's `content-disposition` names its file). */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Sends one call and resolves with its answer; rejects only when no answer came (the sandbox is
 * not running, the connection was lost).
 */
export type ControlSend = (request: ControlRequest) => Promise<ControlAnswer>;

/** A call that failed: what a package turns into its own error class, with its own prefix. */
export interface ControlFailure {
  /** The status answered; `0` when no answer came. */
  readonly status: number;
  /** The body answered; `undefined` when none came. */
  readonly body: unknown;
  /** What went wrong and what to do next, without a package prefix. */
  readonly message: string;
  /** The error that stopped the call, when it threw one. */
  readonly cause?: unknown;
}

/** Makes the error a failed call rejects with. */
export type ControlErrorFactory = (failure: ControlFailure) => Error;

/** How a client sends and fails. */
export interface ControlClientOptions {
  readonly send: ControlSend;
  readonly fail: ControlErrorFactory;
  /** Where the calls go, as messages name it: the sandbox's origin. */
  readonly target: string;
}

/** Typed calls of the control API, one per path and method of sandbox.yaml. */
export interface ControlClient {
  /**
   * Makes one call and resolves with its success body (`undefined` for a 204); rejects with the
   * client's error for any other status, for a success of another media type than the contract
   * says (an answer from something that is not a sandbox), and when no answer came (status 0).
   *
   * @example
   * ```ts
   * import { createControlClient, fetchSend } from '@fflkit/sandbox-core/control';
   *
   * const control = createControlClient({
   *   send: fetchSend('http://127.0.0.1:4010'),
   *   fail: ({ message }) => new Error(message),
   *   target: 'http://127.0.0.1:4010',
   * });
   * const { data } = await control.call('post', '/_sandbox/webhooks/{id}/ping', { token: 'sbx_...', path: { id: 7 } });
   * data.event; // 'ping'
   * ```
   */
  call<M extends ControlMethod, P extends ControlPath<M>>(
    method: M,
    path: P,
    ...options: object extends ControlCallOptions<Operation<M, P>>
      ? [options?: ControlCallOptions<Operation<M, P>>]
      : [options: ControlCallOptions<Operation<M, P>>]
  ): Promise<ControlSuccess<Operation<M, P>>>;
  /** Makes one call as {@link call} does, and resolves with the success's headers too. */
  answer<M extends ControlMethod, P extends ControlPath<M>>(
    method: M,
    path: P,
    ...options: object extends ControlCallOptions<Operation<M, P>>
      ? [options?: ControlCallOptions<Operation<M, P>>]
      : [options: ControlCallOptions<Operation<M, P>>]
  ): Promise<ControlSuccessAnswer<ControlSuccess<Operation<M, P>>>>;
}

/** Makes a typed client of the control API over `send`. */
export function createControlClient({ send, fail, target }: ControlClientOptions): ControlClient {
  const answer = async (
    method: ControlMethod,
    template: string,
    options: {
      token?: string | undefined;
      path?: Readonly<Record<string, unknown>> | undefined;
      query?: Readonly<Record<string, unknown>> | undefined;
      body?: unknown;
    } = {},
  ): Promise<ControlSuccessAnswer<never>> => {
    const { token, path, query, body } = options;
    const request: ControlRequest = {
      method: method.toUpperCase() as ControlRequest['method'],
      path: fillPath(template, path),
      query: queryString(query),
      headers: {
        accept: 'application/json, text/csv',
        ...(token !== undefined && { authorization: `Bearer ${token}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    };
    const call = `${request.method} ${request.path}${request.query === '' ? '' : `?${request.query}`}`;
    let answered: ControlAnswer;
    try {
      answered = await send(request);
    } catch (error) {
      throw fail({
        status: 0,
        body: undefined,
        message: `${call}: no answer from ${target}; is the sandbox running?`,
        cause: error,
      });
    }
    const { status, headers, body: content } = answered;
    if (status < 200 || status > 299) {
      const message = (content as { message?: unknown } | undefined)?.message;
      const said =
        typeof message === 'string'
          ? message
          : typeof content === 'string' || content === undefined
            ? (content ?? '')
            : JSON.stringify(content);
      throw fail({ status, body: content, message: `${call} answered ${status}: ${said}` });
    }
    if (status === 204) return { body: undefined as never, headers };
    // A success of another kind than the contract's: an answer from something else at the address.
    const expected = template.endsWith('/export') ? 'CSV' : 'JSON';
    const fits =
      expected === 'CSV'
        ? mediaType(headers['content-type']) === 'text/csv'
        : typeof content === 'object' && content !== null;
    if (!fits) {
      throw fail({
        status,
        body: content,
        message: `${call} answered ${status} without ${expected}: is ${target} a FFLKit sandbox?`,
      });
    }
    return { body: content as never, headers };
  };
  return {
    answer: answer as ControlClient['answer'],
    call: (async (...given: Parameters<typeof answer>) => (await answer(...given)).body) as ControlClient['call'],
  };
}

/**
 * Sends calls with `fetch` to a sandbox at `origin` (`''` for the page's own origin, as the
 * console does); `fetcher` is looked up per call when not given, so a test may replace the
 * global one. A CSV body is kept as text; any other is parsed as JSON, or kept as text when it
 * is not JSON.
 */
export function fetchSend(origin: string, fetcher?: typeof fetch): ControlSend {
  return async ({ method, path, query, headers, body }) => {
    const response = await (fetcher ?? globalThis.fetch)(`${origin}${path}${query === '' ? '' : `?${query}`}`, {
      method,
      headers,
      body: body ?? null,
      cache: 'no-store',
    });
    const text = await response.text();
    const answered: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      answered[name] = value;
    });
    const csv = mediaType(answered['content-type']) === 'text/csv';
    return { status: response.status, headers: answered, body: text === '' ? undefined : csv ? text : parseJson(text) };
  };
}

/** The media type of a Content-Type value, lower-case, without its parameters. */
export function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The JSON value of a text; the text itself when it is not JSON, to show as it came. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The path template with each `{name}` replaced by its parameter, percent-encoded. */
function fillPath(template: string, parameters: Readonly<Record<string, unknown>> | undefined): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(String(parameters?.[name])));
}

/** The query string of the parameters that are given, encoded as a form encodes them. */
export function queryString(parameters: Readonly<Record<string, unknown>> | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters ?? {})) {
    if (value !== undefined) search.append(name, String(value));
  }
  return search.toString();
}
