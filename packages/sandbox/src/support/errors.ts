// The one place that words this package's errors: every message starts with the package's name,
// so that a user who meets one in a log knows which package threw it.

const PREFIX = '[@fflkit/sandbox] ';

/** A message of this package: its name, then what went wrong and what to do next. */
export function packageMessage(message: string): string {
  return `${PREFIX}${message}`;
}

/** A `TypeError` for a call made wrongly, such as a bad option; the message says what to pass. */
export function misuseError(message: string): TypeError {
  return new TypeError(packageMessage(message));
}

/**
 * The message of one of this package's errors without the package's name, for the CLI, which
 * prints its own, and for an answer's body; any other error's message as it is.
 */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.startsWith(PREFIX) ? message.slice(PREFIX.length) : message;
}
