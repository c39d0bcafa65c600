/**
 * A call of the sandbox's control API that was not answered with success: carries the status and
 * the contract's error body (`{ message }`, plus `errors` for a 422).
 *
 * @example
 * ```ts
 * try {
 *   await sandbox.clock.advance(token, 0);
 * } catch (error) {
 *   if (error instanceof SandboxControlError) error.status; // 422
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
