/**
 * The command line or the environment is wrong: an unknown flag, a missing token, a malformed
 * URL. The CLI prints the message, which says what to pass instead, and exits with code 2.
 *
 * @example
 * ```ts
 * throw new UsageError('no API token: set FFLKIT_TOKEN or pass --token');
 * ```
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
