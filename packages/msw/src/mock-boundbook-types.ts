import type { CreatedAccount } from '@boundbook/sandbox-core';
import type { SandboxAccountCreate } from '@boundbook/types';
import type { SandboxClock } from '@boundbook/types';
import type { HttpHandler } from 'msw';
import type { MockBoundBookError } from './mock-boundbook-error';
import type { ContractHttp } from './contract-http-types';

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

/**
 * One captured attempt of a webhook delivery, exactly as it was (or would have been) sent.
 *
 * @example
 * ```ts
 * const delivery: CapturedDelivery | undefined = mock.deliveries.at(-1);
 * if (delivery) await constructEvent(delivery.body, delivery.headers, { secret });
 * ```
 */
export interface CapturedDelivery {
  /** The endpoint's URL. */
  readonly url: string;
  /** `Content-Type`, `User-Agent`, `X-SVC-Event`, `X-SVC-Delivery` and `X-SVC-Signature`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The exact body text that was signed. */
  readonly body: string;
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
