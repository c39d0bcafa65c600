import { SIGNATURE_PREFIX } from '@fflkit/types';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { misuseError } from './errors';

// Hashing, HMAC and random bytes, in plain JavaScript that runs wherever the core runs. A server
// on Node passes `node:crypto`'s functions through the core's options, which are faster; each one
// given is checked against a published known answer first, because a wrong one would leave every
// stored token unreachable or sign every delivery wrongly.

/** A source of random bytes: tokens, secrets and delivery ids. */
export type RandomBytes = (length: number) => Uint8Array;

/** The lowercase hex SHA-256 of a string's UTF-8 bytes. */
export type Sha256Hex = (text: string) => string;

/** The lowercase hex HMAC-SHA256 of a message's UTF-8 bytes keyed with a key's UTF-8 bytes. */
export type HmacSha256Hex = (key: string, message: string) => string;

/** The SHA-256 of `abc` (FIPS 180-2, appendix B.1). */
const ABC_SHA256 = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
/** HMAC-SHA256 of the quick brown fox keyed with `key`, a widely published known answer. */
const FOX_HMAC = 'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8';

/** The sha256 hex hash of a string: how tokens are stored and found (never the token itself). */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** The HMAC-SHA256 hex of a message: how deliveries are signed. */
export function hmacSha256Hex(key: string, message: string): string {
  return bytesToHex(hmac(sha256, utf8ToBytes(key), utf8ToBytes(message)));
}

/** The given hash function once it passes the known answer test, else the default. */
export function checkedSha256Hex(given: Sha256Hex | undefined): Sha256Hex {
  if (given === undefined) return sha256Hex;
  if (given('abc') !== ABC_SHA256) {
    throw misuseError('sha256Hex must return the lowercase hex SHA-256 of the UTF-8 bytes of its argument');
  }
  return given;
}

/** Hashes kept by {@link rememberedSha256Hex}: as many tokens as a busy team uses at once. */
const REMEMBERED_HASHES = 1024;

/**
 * `hash`, remembering the hashes of the last texts it hashed (the tokens of the requests), so that
 * a client's every request looks its token's hash up instead of hashing it again: on both faces,
 * a tenth of a token's cost (the reads benchmark, 0.9x a bare Hapi route, and the mock's cost per
 * call). At most {@link REMEMBERED_HASHES} are kept; past them, the memory starts afresh. Token
 * values stay in memory a little longer, as they do in the request being answered.
 */
export function rememberedSha256Hex(hash: Sha256Hex): Sha256Hex {
  let remembered = new Map<string, string>();
  return (text) => {
    const known = remembered.get(text);
    if (known !== undefined) return known;
    const hashed = hash(text);
    if (remembered.size >= REMEMBERED_HASHES) remembered = new Map();
    remembered.set(text, hashed);
    return hashed;
  };
}

/** The given HMAC once it passes the known answer test, else the default. */
export function checkedHmacSha256Hex(given: HmacSha256Hex | undefined): HmacSha256Hex {
  if (given === undefined) return hmacSha256Hex;
  if (given('key', 'The quick brown fox jumps over the lazy dog') !== FOX_HMAC) {
    throw misuseError(
      'hmacSha256Hex must return the lowercase hex HMAC-SHA256 of the UTF-8 bytes of its second argument keyed with those of its first',
    );
  }
  return given;
}

/**
 * The `X-SVC-Signature` of a delivery body: `sha256=` and the lowercase hex HMAC-SHA256 of the
 * body's UTF-8 bytes, keyed with the UTF-8 bytes of the whole secret, `whsec_` included.
 * Synchronous and free of Node APIs, so it runs wherever the core runs.
 *
 * @example
 * ```ts
 * import { signDelivery } from '@fflkit/sandbox-core';
 *
 * signDelivery('whsec_test', '{"event":"ping"}'); // 'sha256=' followed by 64 hex digits
 * ```
 */
export function signDelivery(secret: string, body: string, hmac: HmacSha256Hex = hmacSha256Hex): string {
  return `${SIGNATURE_PREFIX}${hmac(secret, body)}`;
}

/**
 * One draw of mulberry32, a small seeded generator that gives the same numbers on every engine:
 * the state after `state`, and the number in [0, 1) it draws. Fault rules and delivery chaos
 * draw from it, so that a seed repeats a run.
 */
export function seededDraw(state: number): [next: number, value: number] {
  const next = (state + 0x6d2b79f5) >>> 0;
  let mixed = Math.imul(next ^ (next >>> 15), next | 1);
  mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
  return [next, ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32];
}

/** Random bytes from Web Crypto, which Node and browsers both have. */
export function webRandomBytes(length: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}

const POOL_BYTES = 4096;

/**
 * A byte source that draws from `source` in blocks of 4 KiB and hands them out in order, each
 * byte once: a call of Web Crypto costs about as much for 4 KiB as for 16 bytes, and a core
 * draws 16 for every delivery id. Requests larger than a block go to `source` directly.
 */
export function pooledRandomBytes(source: RandomBytes): RandomBytes {
  let pool: Uint8Array = new Uint8Array(0);
  let offset = 0;
  return (length) => {
    if (length > POOL_BYTES) return source(length);
    if (offset + length > pool.length) {
      pool = source(POOL_BYTES);
      offset = 0;
    }
    offset += length;
    return pool.slice(offset - length, offset);
  };
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 248 is the largest multiple of 62 below 256: bytes from it up would favour the first letters.
const UNBIASED_LIMIT = 248;

/** A random string of `length` characters of [0-9A-Za-z], every character equally likely. */
export function randomBase62(randomBytes: RandomBytes, length: number): string {
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(length - text.length + 8)) {
      if (byte < UNBIASED_LIMIT && text.length < length) text += ALPHABET[byte % 62];
    }
  }
  return text;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** A random version 4 UUID in lower case (RFC 9562). */
export function randomUuid(randomBytes: RandomBytes): string {
  const bytes = randomBytes(16);
  const hex = (position: number): string => HEX[(bytes[position] ?? 0) & 0xff]!;
  const version = HEX[((bytes[6] ?? 0) & 0x0f) | 0x40]!;
  const variant = HEX[((bytes[8] ?? 0) & 0x3f) | 0x80]!;
  return (
    hex(0) +
    hex(1) +
    hex(2) +
    hex(3) +
    '-' +
    hex(4) +
    hex(5) +
    '-' +
    version +
    hex(7) +
    '-' +
    variant +
    hex(9) +
    '-' +
    hex(10) +
    hex(11) +
    hex(12) +
    hex(13) +
    hex(14) +
    hex(15)
  );
}
