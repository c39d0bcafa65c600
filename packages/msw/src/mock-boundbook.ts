import { ApiError, createSandboxCore, type CreatedAccount, type SandboxCore, type SandboxRequest, type SandboxResponse } from '@boundbook/sandbox-core';
import type { SandboxAccountCreate, SandboxClock } from '@boundbook/types';
import type { HttpHandler } from 'msw';
import { type CapturedDelivery, createCapturingSender } from './captured-deliveries';
import { type ContractHttp, createContractHttp, type MockEndpoints, readBaseUrl } from './contract-http';
import { type MockBoundBookError, refusal } from './errors';
import { createMockHandlers } from './handlers';

// The mock: its options, its public object (handlers and the means to arrange and inspect the
// state) and the core behind it. Every member of the mock is declared in `MockBoundBook` and
// made in `createMockBoundBook`, here.

/** Options of {@link createMockBoundBook}. */
export interface MockBoundBookOptions {
  /**
   * The API's base URL as the code under test uses it, ending in `/rest/v1`, such as
   * `https://api.boundbook.test/rest/v1`. The control API answers at its origin's `/_sandbox`.
   */
  baseUrl: string;
  /**
   * Whether webhook deliveries are really sent: each attempt is then POSTed with `fetch` to the
   * endpoint's URL (5 s time-out) and its status recorded. Off by default: every attempt is only
   * captured in {@link MockBoundBook.deliveries} and answered 200.
   */
  deliverWebhooks?: boolean | undefined;
  /** Requests per minute per token; `0` lifts the limit. Defaults to 60, as the service. */
  rateLimit?: number | undefined;
  /**
   * Wall clock in milliseconds since the epoch; each account's clock adds its own offset. Defaults
   * to `Date.now`; a fixed value makes due times and timestamps exact in tests.
   */
  now?: (() => number) | undefined;
}

/** An account's clock, as `GET /_sandbox/clock` answers it: `{ now, offset_seconds }`. */
export type MockClockState = SandboxClock;

/** The per-account clock, read and advanced through the control API with an account's token. */
export interface MockClock {
  /** Reads the clock of the token's account. */
  now(token: string): Promise<MockClockState>;
  /**
   * Moves the token's account's clock forward by `seconds` (1 to 31,536,000), making every
   * delivery attempt that falls due in the skipped time before resolving.
   */
  advance(token: string, seconds: number): Promise<MockClockState>;
}

/**
 * A mock of the service: MSW handlers and the means to arrange and inspect its state.
 *
 * @example
 * ```ts
 * import { createMockBoundBook, type MockBoundBook } from '@boundbook/msw';
 * import { setupServer } from 'msw/node';
 *
 * const mock: MockBoundBook = createMockBoundBook({ baseUrl: 'https://api.boundbook.test/rest/v1' });
 * setupServer(...mock.handlers).listen();
 * const { token } = mock.createAccount();
 * ```
 */
export interface MockBoundBook {
  /** Handlers for `${baseUrl}/*` and `${origin}/_sandbox/*`, for `setupServer` or `setupWorker`. */
  readonly handlers: readonly HttpHandler[];
  /**
   * MSW's `http` narrowed to the contract, for handlers that override the mock in one test
   * (`server.use(...)`): `http.get('/receipts/{id}', resolver)` matches `${baseUrl}/receipts/:id`,
   * and the path, its parameters, the request body and the response body are typed from
   * `@boundbook/types`.
   */
  readonly http: ContractHttp;
  /**
   * Makes an isolated account with the book `Main` and a token holding every permission. Options
   * the control API would refuse throw a {@link MockBoundBookError} with its 422 body.
   */
  createAccount(options?: SandboxAccountCreate): CreatedAccount;
  /** The per-account clock. */
  readonly clock: MockClock;
  /** Every attempt of a webhook delivery so far, in the order made. */
  readonly deliveries: readonly CapturedDelivery[];
  /** Forgets everything: a fresh core (no account), no captured delivery. */
  reset(): void;
}

/**
 * Makes a mock of the service for MSW: handlers that answer every request to `baseUrl` and to the
 * control API (`/_sandbox`) with the sandbox core's behaviour, contract errors, rate limit and
 * per-account clock included, and captured webhook deliveries. Deliveries that are due are
 * attempted before each answer, so a test sees them as soon as its request resolves; retries fall
 * due on the account's clock (`clock.advance`).
 *
 * @example
 * ```ts
 * import { createMockBoundBook } from '@boundbook/msw';
 * import { setupServer } from 'msw/node';
 *
 * const mock = createMockBoundBook({ baseUrl: 'https://api.boundbook.test/rest/v1' });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * const { token } = mock.createAccount();
 * const response = await fetch('https://api.boundbook.test/rest/v1/books', {
 *   headers: { authorization: `Bearer ${token}` },
 * });
 * response.status; // 200
 * ```
 */
export function createMockBoundBook(options: MockBoundBookOptions): MockBoundBook {
  const settings = readMockOptions(options);
  const { apiUrl, origin, deliverWebhooks, rateLimit, now } = settings;
  const captured: CapturedDelivery[] = [];
  const makeCore = (): SandboxCore =>
    createSandboxCore({
      sendDelivery: createCapturingSender(captured, deliverWebhooks),
      ...(rateLimit === undefined ? {} : { rateLimit }),
      ...(now === undefined ? {} : { now }),
    });
  let core = makeCore();

  async function answer(request: SandboxRequest): Promise<SandboxResponse> {
    const current = core;
    const response = await current.handle(request);
    // The attempts the request made due, made before answering so that tests need not wait.
    await Promise.all(current.deliveries.startDue(Number.MAX_SAFE_INTEGER));
    return response;
  }

  async function control(token: string, method: string, path: string, body?: unknown): Promise<MockClockState> {
    const response = await answer({
      method,
      path,
      query: '',
      headers: {
        authorization: `Bearer ${token}`,
        host: new URL(origin).host,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status !== 200) throw refusal(`${method} ${path}`, response.status, response.body);
    return (response.body as { data: MockClockState }).data;
  }

  return {
    handlers: createMockHandlers(settings, answer),
    http: createContractHttp(apiUrl),
    createAccount(input) {
      try {
        return core.createAccount(input);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        throw refusal('createAccount()', error.status, error.body);
      }
    },
    clock: {
      now: (token) => control(token, 'GET', '/_sandbox/clock'),
      advance: (token, seconds) => control(token, 'POST', '/_sandbox/clock/advance', { seconds }),
    },
    deliveries: captured,
    reset(): void {
      core.deliveries.close();
      core = makeCore();
      captured.length = 0;
    },
  };
}

/** The options of {@link createMockBoundBook}, checked, with their defaults. */
interface MockSettings extends MockEndpoints {
  readonly deliverWebhooks: boolean;
  readonly rateLimit: number | undefined;
  readonly now: (() => number) | undefined;
}

/**
 * Checks the options, throwing a `TypeError` that names the option and what it takes, before
 * anything is made.
 */
function readMockOptions(options: MockBoundBookOptions | undefined): MockSettings {
  const fail = (message: string): never => {
    throw new TypeError(`[@boundbook/msw] createMockBoundBook(): ${message}`);
  };
  if (typeof options !== 'object' || options === null) {
    return fail("pass the options, at least { baseUrl: 'https://api.boundbook.test/rest/v1' }");
  }
  const { deliverWebhooks, rateLimit, now } = options;
  if (deliverWebhooks !== undefined && typeof deliverWebhooks !== 'boolean') fail('deliverWebhooks must be true or false');
  if (rateLimit !== undefined && !(Number.isSafeInteger(rateLimit) && rateLimit >= 0)) {
    fail(`rateLimit must be a whole number of requests per minute per token, or 0 to lift the limit; got ${String(rateLimit)}`);
  }
  if (now !== undefined && typeof now !== 'function') fail('now must be a function returning epoch milliseconds, such as () => Date.now()');
  return { ...readBaseUrl(options.baseUrl, 'createMockBoundBook'), deliverWebhooks: deliverWebhooks ?? false, rateLimit, now };
}
