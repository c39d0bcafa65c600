/**
 * A call of the mock (`createAccount`, `clock.now`, `clock.advance`) that the core refused: carries the
 * status and the contract's error body.
 *
 * @example
 * ```ts
 * try {
 *   await mock.clock.advance(token, 0);
 * } catch (error) {
 *   if (error instanceof MockBoundBookError) error.status; // 422
 * }
 * ```
 */
export class MockBoundBookError extends Error {
  override readonly name = 'MockBoundBookError';
  /** The status the control API answered. */
  readonly status: number;
  /** The body it answered, in the contract's error shape. */
  readonly body: unknown;

  constructor(status: number, body: unknown, message: string) {
    super(message);
    this.status = status;
    this.body = body;
  }
}
