// HMAC-SHA256 and SHA-256 for the web build, on Web Crypto alone (no node: import): the keys,
// kept between calls; digests as hex; and the comparison of digests in constant time, written
// here since Web Crypto offers none of its own (`crypto.subtle.verify` does not promise constant
// time everywhere).
import type { Sha256Hex } from './dedup';
import type { MatchSecret } from './signature';

/** Keys kept: enough for a receiver's secrets during a rotation, small enough to never grow. */
const CACHED_KEYS = 8;
const keys = new Map<string, Promise<CryptoKey>>();
const encoder = new TextEncoder();
const HEX_DIGITS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * `MatchSecret` on Web Crypto: `crypto.subtle.sign` for each secret in turn, and a constant-time
 * comparison of the 32 digest bytes.
 */
export const matchWebSecret: MatchSecret = async (secrets, payload, digestHex) => {
  const expected = hexToBytes(digestHex);
  const bytes = toByteSource(payload);
  for (let index = 0; index < secrets.length; index += 1) {
    const actual = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secrets[index] as string), bytes));
    if (constantTimeEqual(actual, expected)) return index;
  }
  return -1;
};

/** The lowercase hex HMAC-SHA256 of the payload under the secret. */
export async function hmacHex(secret: string, payload: string | Uint8Array): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), toByteSource(payload))));
}

/** `Sha256Hex` on Web Crypto: the key the handler deduplicates a delivery on. */
export const sha256Hex: Sha256Hex = async (payload) =>
  bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', toByteSource(payload))));

/**
 * The HMAC-SHA256 signing key of a secret (its UTF-8 bytes, `whsec_` included). Importing a key
 * costs as much as signing a small body, so the last few keys are kept, oldest dropped first.
 */
export function hmacKey(secret: string): Promise<CryptoKey> {
  const cached = keys.get(secret);
  if (cached) return cached;
  const key = crypto.subtle.importKey('raw', toByteSource(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  if (keys.size >= CACHED_KEYS) keys.delete(keys.keys().next().value as string);
  keys.set(secret, key);
  // A failed import is not kept: the next call tries again.
  key.catch(() => keys.delete(secret));
  return key;
}

/**
 * Whether two byte arrays are equal, in time that depends on their length only: every byte is
 * compared and the differences are OR-ed together, with no early exit.
 */
export function constantTimeEqual(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let index = 0; index < left.length; index += 1) {
    difference |= (left[index] as number) ^ (right[index] as number);
  }
  return difference === 0;
}

/** The bytes Web Crypto signs: the UTF-8 encoding of a string, or the given bytes themselves. */
function toByteSource(payload: string | Uint8Array): Uint8Array<ArrayBuffer> {
  return typeof payload === 'string' ? encoder.encode(payload) : (payload as Uint8Array<ArrayBuffer>);
}

/** The bytes of a string of hex digit pairs, already checked against the signature's pattern. */
function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index += 1) {
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  }
  return bytes;
}

function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += HEX_DIGITS[byte];
  return hex;
}
