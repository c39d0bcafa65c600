import { ExchangeChecker } from '../contract-check/exchange-check';
import { ConformanceError } from './conformance-error';
import type { ViolationFinding } from '../contract-check/violations';

// The requests of a conformance run: each sent to the service with the token it names (the
// run's token, its read-only token, none, or one that no account has), its answer read whole,
// and the exchange checked against the contract as the drift proxy checks it. The run keeps
// under the service's rate limit: a 429 is waited out (its Retry-After) and the request sent
// again. Evidence names the token only by its role, never by its value.

/** A fetch as the run is given it. */
export type ConformanceFetch = (input: string, init: RequestInit) => Promise<Response>;

/** The credentials of a request, by their role. */
export type Credentials = 'token' | 'read-token' | 'none' | 'unknown-token';

/** One request of the run and its answer. */
export interface ProbeExchange {
  /** `GET /receipts?per_page=201 (with the token)`: what was sent, without the token's value. */
  readonly request: string;
  readonly status: number;
  /** The answer's headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The answer's body as text. */
  readonly text: string;
  /** The answer's body parsed; `undefined` when it is empty or not JSON. */
  readonly body: unknown;
  /** What of the exchange departs from the contract. */
  readonly findings: readonly ViolationFinding[];
}

/** What a request carries besides its method and path. */
export interface ProbeRequest {
  /** Which token it carries; the run's token unless told. */
  readonly credentials?: Credentials | undefined;
  /** A JSON body: an object to serialise, or the exact text to send. */
  readonly body?: unknown;
}

/** How long the run waits out a 429 at most, and how many times it tries a request. */
const MAX_WAIT_SECONDS = 61;
const TRIES = 3;
const TEXT_SHOWN = 600;

/** Sends the run's requests and checks each exchange. */
export class ProbeClient {
  readonly #baseUrl: string;
  readonly #tokens: Readonly<Record<Credentials, string | undefined>>;
  readonly #fetch: ConformanceFetch;
  readonly #wait: (ms: number) => Promise<void>;
  readonly #observe: (exchange: ProbeExchange) => void;
  // The run probes read-after-write itself, with evidence of its own.
  readonly #checker = new ExchangeChecker({ readAfterWrite: false });
  #sequence = 0;
  /** How many requests were sent with each token. */
  readonly sent: Record<Credentials, number> = { token: 0, 'read-token': 0, none: 0, 'unknown-token': 0 };

  constructor(options: {
    readonly baseUrl: string;
    readonly token: string;
    readonly readToken?: string | undefined;
    readonly fetch: ConformanceFetch;
    readonly wait: (ms: number) => Promise<void>;
    /** Hears every exchange, those of the 429s waited out included. */
    readonly observe: (exchange: ProbeExchange) => void;
  }) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#tokens = {
      token: options.token,
      'read-token': options.readToken,
      none: undefined,
      'unknown-token': 'fflkit-conformance-token-that-no-account-has',
    };
    this.#fetch = options.fetch;
    this.#wait = options.wait;
    this.#observe = options.observe;
  }

  /** Whether a read-only token was given. */
  get hasReadToken(): boolean {
    return this.#tokens['read-token'] !== undefined;
  }

  /** Sends `method path` (after the base URL) and checks the exchange. */
  async send(method: string, path: string, request: ProbeRequest = {}): Promise<ProbeExchange> {
    const credentials = request.credentials ?? 'token';
    const token = this.#tokens[credentials];
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'fflkit-sandbox-conformance' };
    if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
    const body =
      request.body === undefined
        ? undefined
        : typeof request.body === 'string'
          ? request.body
          : JSON.stringify(request.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const described = `${method} ${path} (${describe(credentials)})`;
    for (let attempt = 1; ; attempt += 1) {
      const started = (this.#sequence += 1);
      let response: Response;
      try {
        response = await this.#fetch(`${this.#baseUrl}${path}`, {
          method,
          headers,
          ...(body !== undefined && { body }),
        });
      } catch (error) {
        throw new ConformanceError(
          `[@fflkit/sandbox] no answer from ${this.#baseUrl} to ${described}: ${error instanceof Error ? error.message : String(error)}; check --base-url`,
          { cause: error },
        );
      }
      this.sent[credentials] += 1;
      const bytes = new Uint8Array(await response.arrayBuffer());
      const answered: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        answered[name] = value;
      });
      const findings = this.#checker.check({
        method,
        target: path,
        requestHeaders: headers,
        requestBody: body === undefined ? undefined : Buffer.from(body),
        status: response.status,
        responseHeaders: answered,
        responseBody: bytes,
        started,
        ended: (this.#sequence += 1),
      });
      const text = Buffer.from(bytes).toString('utf8');
      const exchange: ProbeExchange = {
        request: described,
        status: response.status,
        headers: answered,
        text,
        body: parse(text),
        findings,
      };
      this.#observe(exchange);
      const retryAfter = Number(answered['retry-after']);
      if (response.status !== 429 || attempt >= TRIES || !(retryAfter >= 0 && retryAfter <= MAX_WAIT_SECONDS)) {
        return exchange;
      }
      // The token's window is spent: the 429 was checked like any answer; it is waited out.
      await this.#wait(retryAfter * 1_000);
    }
  }
}

/** An exchange as evidence: what was sent, what came back (the body cut short). */
export function answerOf(exchange: ProbeExchange): { status: number; headers: Record<string, string>; body: string } {
  const shown: Record<string, string> = {};
  for (const name of [
    'content-type',
    'www-authenticate',
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'retry-after',
    'x-ratelimit-reset',
  ]) {
    if (exchange.headers[name] !== undefined) shown[name] = exchange.headers[name]!;
  }
  const body = exchange.text.length > TEXT_SHOWN ? `${exchange.text.slice(0, TEXT_SHOWN)}...` : exchange.text;
  return { status: exchange.status, headers: shown, body };
}

function describe(credentials: Credentials): string {
  switch (credentials) {
    case 'token':
      return 'with the token';
    case 'read-token':
      return 'with the read-only token';
    case 'none':
      return 'without a token';
    case 'unknown-token':
      return 'with a token that no account has';
  }
}

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
