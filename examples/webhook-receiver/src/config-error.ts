/**
 * The receiver's environment is missing a setting or holds a wrong one; the message names the
 * variable and what to put in it.
 *
 * @example
 * ```ts
 * throw new ConfigError('FFLKIT_WEBHOOK_SECRET is not set: ...');
 * ```
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
