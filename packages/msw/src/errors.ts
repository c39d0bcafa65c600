/**
 * A call of the mock (`createAccount`, `clock.now`, `clock.advance`, `exportFixtures`,
 * `faults.*`, `requests`) that the core refused, fixtures it refused when the mock was made, or a
 * request log that dropped entries the filter could match (status 200, the log as `body`):
 * carries the status and the body, whose `errors` name each fault of a fixtures file by its path
 * in it.
 *
 * @example
 * ```ts
 * import { createMockLogbook, MockLogbookError } from '@fflkit/msw';
 *
 * const mock = createMockLogbook({ baseUrl: 'https://logbook.example.test/rest/v1' });
 * const { token } = mock.createAccount();
 * try {
 *   await mock.clock.advance(token, 0);
 * } catch (error) {
 *   if (error instanceof MockLogbookError) error.status; // 422
 * }
 * ```
 */
export class MockLogbookError extends Error {
  override readonly name = 'MockLogbookError';
  /** The status the control API answered. */
  readonly status: number;
  /** The body it answered, in the contract's error shape. */
  readonly body: unknown;

  /** `message` says what went wrong and what to do next; the package's prefix is added here. */
  constructor(status: number, body: unknown, message: string, options?: ErrorOptions) {
    super(packageMessage(message), options);
    this.status = status;
    this.body = body;
  }
}

/** The error of a call of the mock that the core refused, worded with the call, its status and body. */
export function refusal(call: string, status: number, body: unknown): MockLogbookError {
  return new MockLogbookError(status, body, `${call} answered ${status}: ${JSON.stringify(body)}`);
}

const PREFIX = '[@fflkit/msw] ';

/** A message of this package: its name, then what went wrong and what to do next. */
export function packageMessage(message: string): string {
  return `${PREFIX}${message}`;
}

/** A `TypeError` for a call made wrongly, such as a bad option; the message says what to pass. */
export function misuseError(message: string): TypeError {
  return new TypeError(packageMessage(message));
}
