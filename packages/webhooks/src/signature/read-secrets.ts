import { describeValue } from '../errors/describe-value';
import { misuseError } from '../errors/misuse-error';

/**
 * The endpoint's signing secret exactly as the service showed it (`whsec_...`, prefix included),
 * or several of them while rotating: a signature made with any of them is accepted.
 */
export type WebhookSecret = string | readonly string[];

/**
 * The secrets to try, in order, from a `secret` option; throws a `TypeError` unless it is a
 * non-empty string or a non-empty array of non-empty strings.
 *
 * @example
 * ```ts
 * readSecrets(['whsec_new', 'whsec_old'], 'verifySignature'); // ['whsec_new', 'whsec_old']
 * ```
 */
export function readSecrets(secret: unknown, caller: string): readonly string[] {
  if (typeof secret === 'string' && secret !== '') return [secret];
  if (Array.isArray(secret) && secret.length > 0 && secret.every((item) => typeof item === 'string' && item !== '')) {
    return secret as readonly string[];
  }
  throw misuseError(
    `${caller}: secret must be the endpoint's signing secret (a non-empty string, "whsec_..."), or a non-empty array of them while rotating; got ${describeValue(secret)}`,
  );
}

/**
 * The one secret to sign with; throws a `TypeError` unless it is a non-empty string.
 *
 * @example
 * ```ts
 * readSecret('whsec_abc', 'signPayload'); // 'whsec_abc'
 * ```
 */
export function readSecret(secret: unknown, caller: string): string {
  if (typeof secret === 'string' && secret !== '') return secret;
  throw misuseError(`${caller}: secret must be one signing secret (a non-empty string, "whsec_..."); got ${describeValue(secret)}`);
}
