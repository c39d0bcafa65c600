// X-SVC-Signature as both builds read it: the arguments (raw body, secrets), the header's form,
// and `verifySignature` over a build's HMAC. Each build brings only `MatchSecret` (node:crypto
// or Web Crypto); everything above the digest is shared, so the builds cannot drift apart.
import { SECRET_PREFIX, SIGNATURE_PREFIX } from '@fflkit/types';
import { describeValue, misuseError } from './errors';

/**
 * The raw request body: the exact bytes received, as text or bytes (`Buffer` is a `Uint8Array`).
 * Never a parsed object: the signature covers the bytes, and `JSON.stringify` of a parsed body
 * does not give them back.
 */
export type WebhookPayload = string | Uint8Array | ArrayBuffer | ArrayBufferView;

/**
 * The endpoint's signing secret exactly as the service showed it (`whsec_...`, prefix included),
 * or several of them while rotating: a signature made with any of them is accepted.
 */
export type WebhookSecret = string | readonly string[];

/**
 * Index of the first secret whose HMAC-SHA256 of `payload` equals the digest given as 64
 * lowercase hex digits, compared in constant time; -1 when none does. Synchronous on node:crypto,
 * a promise on Web Crypto.
 */
export type MatchSecret = (
  secrets: readonly string[],
  payload: string | Uint8Array,
  digestHex: string,
) => number | Promise<number>;

const DIGEST_HEX = /^[0-9a-f]{64}$/;

/**
 * `verifySignature` over a build's `matchSecret`. The arguments are checked before the header,
 * so a parsed body throws even when the signature is missing. Synchronous when `matchSecret` is,
 * so the Node build's `verifySignature` costs a single promise.
 */
export function verifySignatureWith(
  matchSecret: MatchSecret,
  secret: unknown,
  payload: unknown,
  signature: unknown,
): boolean | Promise<boolean> {
  const secrets = readSecrets(secret, 'verifySignature');
  const bytes = readPayload(payload, 'verifySignature');
  const digestHex = readSignatureHex(signature);
  if (digestHex === undefined) return false;
  const index = matchSecret(secrets, bytes, digestHex);
  return typeof index === 'number' ? index >= 0 : index.then((found) => found >= 0);
}

/**
 * The 64 lowercase hex digits of an `X-SVC-Signature` value, or `undefined` for anything else: a
 * missing header, another algorithm, upper-case hex, a wrong length or surrounding text. The
 * contract's pattern is `^sha256=[0-9a-f]{64}$`.
 */
export function readSignatureHex(signature: unknown): string | undefined {
  if (typeof signature !== 'string' || !signature.startsWith(SIGNATURE_PREFIX)) return undefined;
  const hex = signature.slice(SIGNATURE_PREFIX.length);
  return DIGEST_HEX.test(hex) ? hex : undefined;
}

/** The payload as a string or a `Uint8Array` over the same bytes; anything else is a misuse that says to pass the raw body. */
export function readPayload(payload: unknown, caller: string): string | Uint8Array {
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload;
  // ArrayBuffer.isView and the tag work across realms (a Buffer handed to a jsdom test, say).
  if (ArrayBuffer.isView(payload)) return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  if (Object.prototype.toString.call(payload) === '[object ArrayBuffer]') return new Uint8Array(payload as ArrayBuffer);
  const kind = describeValue(payload);
  throw misuseError(
    kind === 'an object' || kind.startsWith('an array')
      ? `${caller}: payload is a parsed object; pass the raw request body instead (a string, Uint8Array, ArrayBuffer or Buffer): the signature covers the exact bytes received. Mount the webhook route before express.json() (or give it express.raw({ type: 'application/json' })), or turn the framework's body parser off for it.`
      : `${caller}: payload must be the raw request body (a string, Uint8Array, ArrayBuffer or Buffer); got ${kind}.`,
  );
}

/**
 * The secrets to try, in order: a non-empty string, or a non-empty array of non-empty strings.
 * `name` is what the message calls the value; `otherForm` names another form the caller takes.
 */
export function readSecrets(secret: unknown, caller: string, name = 'secret', otherForm = ''): readonly string[] {
  if (typeof secret === 'string' && secret !== '') return [secret];
  if (Array.isArray(secret) && secret.length > 0 && secret.every((item) => typeof item === 'string' && item !== '')) {
    return secret as readonly string[];
  }
  throw misuseError(
    `${caller}: ${name} must be the endpoint's signing secret (a non-empty string, "whsec_..."), or a non-empty array of them while rotating${otherForm}; got ${describeValue(secret)}`,
  );
}

/**
 * The secrets of an endpoint of the service, as `readSecrets`, each of which must start with
 * `whsec_`: the service's secrets all do, and the prefix is part of the HMAC key, so a secret
 * copied without it would fail every delivery with `signature_mismatch`. Refused at once instead.
 */
export function readEndpointSecrets(
  secret: unknown,
  caller: string,
  name = 'secret',
  otherForm = '',
): readonly string[] {
  const secrets = readSecrets(secret, caller, name, otherForm);
  if (secrets.every((item) => item.startsWith(SECRET_PREFIX) && item.length > SECRET_PREFIX.length)) return secrets;
  throw misuseError(
    `${caller}: ${name} must be the endpoint's signing secret exactly as the service showed it when the endpoint was created, "${SECRET_PREFIX}" prefix included; got ${secrets.length === 1 ? 'a string' : 'an array holding a string'} that is not "${SECRET_PREFIX}" followed by the secret`,
  );
}

/** The one secret to sign with: a non-empty string. */
export function readSecret(secret: unknown, caller: string): string {
  if (typeof secret === 'string' && secret !== '') return secret;
  throw misuseError(
    `${caller}: secret must be one signing secret (a non-empty string, "whsec_..."); got ${describeValue(secret)}`,
  );
}
