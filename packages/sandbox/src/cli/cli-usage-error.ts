/**
 * The command line is wrong: an unknown flag, a missing or malformed value, or flags that
 * contradict each other. The CLI prints the message with a usage hint and exits with code 2.
 *
 * @example
 * ```ts
 * throw new CliUsageError('--port must be a whole number from 0 to 65535, not "abc"');
 * ```
 */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}
