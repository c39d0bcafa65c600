/** The package name every error message starts with, so a log line says where it came from. */
export const MESSAGE_PREFIX = '[@boundbook/webhooks]';

/**
 * A `TypeError` for a call the caller got wrong (a missing secret, a parsed body, an unknown
 * option), with the package name in front of the message. Setup mistakes throw; they are never
 * answered as a failed signature.
 *
 * @example
 * ```ts
 * throw misuseError('verifySignature: secret must be a non-empty string');
 * ```
 */
export function misuseError(message: string): TypeError {
  return new TypeError(`${MESSAGE_PREFIX} ${message}`);
}

/**
 * Whether an error is one of this package's misuse errors, whose message is safe to show (it
 * describes the receiver's setup, never a secret).
 *
 * @example
 * ```ts
 * isMisuseError(misuseError('x')); // true
 * ```
 */
export function isMisuseError(error: unknown): error is TypeError {
  return error instanceof TypeError && error.message.startsWith(MESSAGE_PREFIX);
}
