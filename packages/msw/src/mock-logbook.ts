import {
  ApiError,
  createSandboxCore,
  rateLimitProblem,
  type CoreSnapshot,
  type CreatedAccount,
  type SandboxCore,
  type SandboxCoreOptions,
  type SandboxRequest,
  type SandboxResponse,
} from '@fflkit/sandbox-core';
import {
  type ControlAnswer,
  type ControlFailure,
  type ControlSend,
  createControlCalls,
  createControlClient,
} from '@fflkit/sandbox-core/control';
import type {
  SandboxAccountCreate,
  SandboxClock,
  SandboxFault,
  SandboxFaultCreate,
  SandboxFixtures,
  SandboxLoggedRequest,
  SandboxRequestFilter,
  SandboxRequestLogEntry,
  SandboxWebhookChaosPut,
  SandboxWebhookEndpointState,
  ServiceOperationId,
} from '@fflkit/types';
import type { HttpHandler } from 'msw';
import { type CapturedDelivery, createCapturingSender } from './captured-deliveries';
import { type ContractHttp, createContractHttp, type MockEndpoints, readBaseUrl } from './contract-http';
import { MockLogbookError, misuseError, refusal } from './errors';
import { createMockHandlers } from './handlers';

// The mock: its options, its public object (handlers and the means to arrange and inspect the
// state) and the core behind it. Every member of the mock is declared in `MockLogbook` and
// made in `makeMockLogbook`, here; the entries (src/index.ts for Node, src/web.ts for the
// rest) differ only in whether `fixtures` may be a path.

/** Options of `createMockLogbook`. */
export interface MockLogbookOptions {
  /**
   * The API's base URL as the code under test uses it, ending in `/rest/v1`, such as
   * `https://logbook.example.test/rest/v1`. The control API answers at its origin's `/_sandbox`.
   */
  baseUrl: string;
  /**
   * Whether webhook deliveries are really sent: each attempt is then POSTed with `fetch` to the
   * endpoint's URL (5 s time-out) and its status recorded. Off by default: every attempt is only
   * captured in {@link MockLogbook.deliveries} and answered 200.
   */
  deliverWebhooks?: boolean | undefined;
  /** Requests per minute per token; `0` lifts the limit. Defaults to 60, as the service. */
  rateLimit?: number | undefined;
  /**
   * Wall clock in milliseconds since the epoch; each account's clock adds its own offset. Defaults
   * to `Date.now`; a fixed value makes due times and timestamps exact in tests.
   */
  now?: (() => number) | undefined;
  /**
   * Accounts to start with, and to go back to on {@link MockLogbook.reset}: a fixtures object
   * (`SandboxFixtures`: accounts with fixed tokens, books, clock offsets, webhook endpoints with
   * fixed secrets, receipts with their dispositions, documents and E4473 data) or, on Node only,
   * the path of a fixtures file (`.json`, `.yaml` or `.yml`, relative to the working directory).
   * It is loaded through the service's rules when the mock is made, firing no webhook, so its
   * tokens work at once. A file the service would refuse throws a {@link MockLogbookError}
   * (422) whose `body.errors` names each fault by its path in the file
   * (`accounts[0].receipts[3].zip`); nothing is loaded then.
   */
  fixtures?: SandboxFixtures | string | undefined;
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
 * The endpoints' delivery chaos, set and cleared through the control API with an account's token:
 * deliveries held and sent in a shuffled order, sent twice, or late (see
 * `PUT /_sandbox/webhooks/{id}/chaos` in `openapi/sandbox.yaml`).
 */
export interface MockWebhooks {
  /**
   * Sets the endpoint's delivery chaos (settings left out are off) and resolves with the endpoint
   * and its settings, the seed drawn included. Settings the control API refuses reject with a
   * {@link MockLogbookError} and its 422 body.
   *
   * @example
   * ```ts
   * import { createMockLogbook } from '@fflkit/msw';
   *
   * const mock = createMockLogbook({ baseUrl: 'https://logbook.example.test/rest/v1' });
   * const { token } = mock.createAccount();
   * // ...the code under test makes endpoint 1...
   * const { chaos } = await mock.webhooks.setChaos(token, 1, { reorder: { window: 3 }, duplicate: 1, seed: 5 });
   * chaos?.seed; // 5
   * ```
   */
  setChaos(token: string, id: number, settings: SandboxWebhookChaosPut): Promise<SandboxWebhookEndpointState>;
  /** Clears the endpoint's delivery chaos: deliveries made from now on are sent as the service sends them. */
  clearChaos(token: string, id: number): Promise<void>;
}

/**
 * A mock of the service: MSW handlers and the means to arrange and inspect its state.
 *
 * @example
 * ```ts
 * import { createMockLogbook, type MockLogbook } from '@fflkit/msw';
 * import { setupServer } from 'msw/node';
 *
 * const mock: MockLogbook = createMockLogbook({ baseUrl: 'https://logbook.example.test/rest/v1' });
 * setupServer(...mock.handlers).listen();
 * const { token } = mock.createAccount();
 * ```
 */
export interface MockLogbook {
  /**
   * The handlers to spread into `setupServer` or `setupWorker`: one `http.all` for `${baseUrl}`,
   * `${baseUrl}/*` and `${origin}/_sandbox/*`.
   */
  readonly handlers: readonly HttpHandler[];
  /**
   * MSW's `http` narrowed to the contract, for handlers that override the mock in one test
   * (`server.use(...)`): `http.get('/receipts/{id}', resolver)` matches `${baseUrl}/receipts/:id`,
   * and the path, its parameters, the request body and the response body are typed from
   * `@fflkit/types`.
   */
  readonly http: ContractHttp;
  /**
   * Makes an isolated account with the book `Main` and a token holding every permission. Options
   * the control API would refuse throw a {@link MockLogbookError} with its 422 body.
   */
  createAccount(options?: SandboxAccountCreate): CreatedAccount;
  /** The per-account clock. */
  readonly clock: MockClock;
  /** The endpoints' delivery chaos. */
  readonly webhooks: MockWebhooks;
  /**
   * Every attempt of a webhook delivery so far, in the order made; an attempt that delivery chaos
   * duplicated is here twice.
   */
  readonly deliveries: readonly CapturedDelivery[];
  /**
   * The token's account as a fixtures object with that token in it, as `GET /_sandbox/fixtures`
   * answers: saved as JSON, it starts another mock (`fixtures`) or a sandbox in the same state. A
   * token the mock does not hold rejects with a {@link MockLogbookError} (401).
   */
  exportFixtures(token: string): Promise<SandboxFixtures>;
  /**
   * The account's fault rules, as `/_sandbox/faults` manages them: a rule fails the account's
   * service API requests on purpose (a status, a dropped connection answered with
   * `HttpResponse.error()`, or a delay in real time; before or after acting; every time, `times`
   * times, or with a seeded `probability`), exactly as the sandbox honours it. A rule the core
   * refuses rejects with a {@link MockLogbookError} (422, `body.errors` by field).
   */
  readonly faults: MockFaults;
  /**
   * `GET /_sandbox/requests`: the account's logged API requests that match `filter`, newest
   * first: `method`, `path`, `operation`, `status` (0 for a dropped connection), `from`, `to`,
   * `faulted`, and `body`, a part of the body (typed by `operation`) that each must hold. Rejects
   * with a {@link MockLogbookError} when the log dropped entries the filter could have matched
   * (it keeps 1,000 requests and 1 MiB per account), so that an assertion never counts a log cut
   * short: narrow it with `from`.
   */
  requests<O extends ServiceOperationId>(
    token: string,
    filter: SandboxRequestFilter<O> & { operation: O },
  ): Promise<SandboxLoggedRequest<O>[]>;
  requests(token: string, filter?: SandboxRequestFilter): Promise<SandboxRequestLogEntry[]>;
  /**
   * Goes back to the state the mock was made with: the accounts and records of `fixtures`
   * exactly as they were loaded (ids, tokens, secrets and timestamps included), or no account at
   * all without fixtures; no captured delivery, no pending retry.
   */
  reset(): void;
}

/** The fault rules of an account of the mock, as `/_sandbox/faults` manages them. */
export interface MockFaults {
  /** `POST /_sandbox/faults`: adds a rule after the account's others. */
  add(token: string, rule: SandboxFaultCreate): Promise<SandboxFault>;
  /** `GET /_sandbox/faults`: the account's rules in id order, with how often each fired. */
  list(token: string): Promise<SandboxFault[]>;
  /** `DELETE /_sandbox/faults/{id}`: deletes one rule. */
  delete(token: string, id: number): Promise<void>;
  /** `DELETE /_sandbox/faults`: deletes every rule of the account. */
  clear(token: string): Promise<void>;
}

/** What a build gives the mock: how it reads a fixtures path, and hashes faster than the core's own. */
export interface MockRuntime {
  /** Reads a fixtures file at a path and answers its parsed content; the web build refuses. */
  readonly readFixturesFile: (path: string) => unknown;
  /** The core's `sha256Hex` (token lookup on every request), when the runtime has a faster one. */
  readonly sha256Hex?: SandboxCoreOptions['sha256Hex'];
  /** The core's `hmacSha256Hex` (delivery signatures), when the runtime has a faster one. */
  readonly hmacSha256Hex?: SandboxCoreOptions['hmacSha256Hex'];
}

/** The mock of `createMockLogbook` (documented in each entry), on a build's `runtime`. */
export function makeMockLogbook(options: MockLogbookOptions, runtime: MockRuntime): MockLogbook {
  const settings = readMockOptions(options);
  const { apiUrl, origin, deliverWebhooks, rateLimit, now } = settings;
  const fixtures = readFixturesOption(options.fixtures, runtime.readFixturesFile);
  const captured: CapturedDelivery[] = [];
  // The fixtures are loaded once, then kept as the snapshot every reset starts from: the same
  // state each time, and no second pass through validation.
  let start: CoreSnapshot | undefined;
  const makeCore = (): SandboxCore =>
    createSandboxCore({
      sendDelivery: createCapturingSender(captured, deliverWebhooks),
      sha256Hex: runtime.sha256Hex,
      hmacSha256Hex: runtime.hmacSha256Hex,
      ...(rateLimit === undefined ? {} : { rateLimit }),
      ...(now === undefined ? {} : { now }),
      ...(start === undefined ? {} : { snapshot: start }),
    } satisfies SandboxCoreOptions);
  let core = makeCore();
  if (fixtures !== undefined) {
    loadFixtures(core, fixtures);
    start = core.snapshot();
  }

  async function answer(request: SandboxRequest): Promise<SandboxResponse> {
    const current = core;
    const response = await current.handle(request);
    // The attempts the request made due, made before answering so that tests need not wait; again
    // as long as some start, since a shuffled window of delivery chaos starts one at a time.
    for (let attempts = current.deliveries.startDue(Number.MAX_SAFE_INTEGER); attempts.length > 0; ) {
      await Promise.all(attempts);
      attempts = current.deliveries.startDue(Number.MAX_SAFE_INTEGER);
    }
    return response;
  }

  // The control methods are the control API's calls, answered by the core in process.
  const host = new URL(origin).host;
  const send: ControlSend = async (request) =>
    answerOf(await answer({ ...request, headers: { ...request.headers, host } }));
  const fail = ({ status, body, message }: ControlFailure): MockLogbookError =>
    new MockLogbookError(status, body, message);
  const calls = createControlCalls(createControlClient({ send, fail, target: origin }), fail);

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
    clock: calls.clock,
    webhooks: { setChaos: calls.webhooks.setChaos, clearChaos: calls.webhooks.clearChaos },
    deliveries: captured,
    exportFixtures: calls.fixtures.export,
    faults: calls.faults,
    requests: calls.requests,
    reset(): void {
      core.deliveries.close();
      core = makeCore();
      captured.length = 0;
    },
  };
}

/** Fixtures as given: the parsed content, and where it came from, for messages. */
interface FixturesSource {
  readonly file: unknown;
  readonly from: string;
}

/**
 * The `fixtures` option: an object as it is, a path read by `readFixturesFile`; anything else is
 * a `TypeError`. Whether the content is a fixtures file is the core's to say.
 */
function readFixturesOption(
  fixtures: unknown,
  readFixturesFile: MockRuntime['readFixturesFile'],
): FixturesSource | undefined {
  if (fixtures === undefined) return undefined;
  if (typeof fixtures === 'string') return { file: readFixturesFile(fixtures), from: `file ${fixtures}` };
  if (typeof fixtures === 'object' && fixtures !== null) return { file: fixtures, from: 'object' };
  throw misuseError(
    `createMockLogbook(): fixtures must be a fixtures object (SandboxFixtures) or, on Node, the path of a .json, .yaml or .yml file; got ${String(fixtures)}`,
  );
}

/** Loads fixtures into a fresh core; a file the core refuses throws that refusal, worded for the mock. */
function loadFixtures(core: SandboxCore, { file, from }: FixturesSource): void {
  try {
    core.loadFixtures(file as SandboxFixtures);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new MockLogbookError(
      error.status,
      error.body,
      `createMockLogbook(): the fixtures ${from} was refused (${error.status}) and nothing was loaded: ${error.body.message}; error.body.errors holds each fault under its path in the file`,
    );
  }
}

/** The options of `createMockLogbook`, checked, with their defaults. */
interface MockSettings extends MockEndpoints {
  readonly deliverWebhooks: boolean;
  readonly rateLimit: number | undefined;
  readonly now: (() => number) | undefined;
}

/**
 * Checks the options, throwing a `TypeError` that names the option and what it takes, before
 * anything is made.
 */
function readMockOptions(options: MockLogbookOptions | undefined): MockSettings {
  const fail = (message: string): never => {
    throw misuseError(`createMockLogbook(): ${message}`);
  };
  if (typeof options !== 'object' || options === null) {
    return fail("pass the options, at least { baseUrl: 'https://logbook.example.test/rest/v1' }");
  }
  const { deliverWebhooks, rateLimit, now } = options;
  if (deliverWebhooks !== undefined && typeof deliverWebhooks !== 'boolean')
    fail('deliverWebhooks must be true or false');
  const rateProblem = rateLimitProblem(rateLimit);
  if (rateProblem !== undefined) fail(rateProblem);
  if (now !== undefined && typeof now !== 'function')
    fail('now must be a function returning epoch milliseconds, such as () => Date.now()');
  return {
    ...readBaseUrl(options.baseUrl, 'createMockLogbook'),
    deliverWebhooks: deliverWebhooks ?? false,
    rateLimit,
    now,
  };
}

/** The core's answer to a control call, as the control API's client reads one. */
function answerOf(response: SandboxResponse): ControlAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) headers[name.toLowerCase()] = value;
  // The core answers JSON as the object itself, and a CSV export as its text with its own type.
  if (typeof response.body === 'object' && headers['content-type'] === undefined)
    headers['content-type'] = 'application/json';
  return { status: response.status, headers, body: response.body };
}
