import * as crypto from 'node:crypto';

// `@fflkit/sandbox-core/node-crypto`: the core's `sha256Hex` and `hmacSha256Hex` made with
// node:crypto, several times faster than the plain JavaScript defaults, for the token every
// request is looked up by and the signature of every delivery. A Node-only entry, apart from the
// core, so that no browser bundle reaches node:crypto; the sandbox and the MSW mock's Node build
// pass them to the core.

// crypto.hash() (Node 20.12 and later) hashes in one call, without making a Hash object; the
// package supports every Node 20, so older ones make the Hash object.
const oneShotHash = crypto.hash as typeof crypto.hash | undefined;

/**
 * The lowercase hex SHA-256 of a string's UTF-8 bytes with `node:crypto`: the core's
 * `sha256Hex` option, with which it hashes the token of every request.
 *
 * @example
 * ```ts
 * import { createSandboxCore } from '@fflkit/sandbox-core';
 * import { nodeHmacSha256Hex, nodeSha256Hex } from '@fflkit/sandbox-core/node-crypto';
 *
 * const core = createSandboxCore({ sha256Hex: nodeSha256Hex, hmacSha256Hex: nodeHmacSha256Hex });
 * ```
 */
export function nodeSha256Hex(text: string): string {
  if (oneShotHash !== undefined) return oneShotHash('sha256', text, 'hex');
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The lowercase hex HMAC-SHA256 of a string's UTF-8 bytes keyed with another string's UTF-8
 * bytes, with `node:crypto`: the core's `hmacSha256Hex` option, with which it signs every
 * delivery.
 *
 * @example
 * ```ts
 * import { nodeHmacSha256Hex } from '@fflkit/sandbox-core/node-crypto';
 *
 * nodeHmacSha256Hex('key', 'The quick brown fox jumps over the lazy dog'); // 'f7bc83f4...'
 * ```
 */
export function nodeHmacSha256Hex(key: string, message: string): string {
  return crypto.createHmac('sha256', key).update(message, 'utf8').digest('hex');
}
