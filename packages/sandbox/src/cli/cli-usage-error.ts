/**
 * The command line is wrong: an unknown flag, a missing or malformed value, or flags that
 * contradict each other. The CLI prints the message with a usage hint and exits with code 2.
 */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}
