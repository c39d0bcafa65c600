import * as crypto from 'node:crypto';

// crypto.hash() (Node 20.12 and later) hashes in one call, without making a Hash object; the
// package supports every Node 20, so older ones make the Hash object.
const oneShotHash = crypto.hash as typeof crypto.hash | undefined;

/**
 * The lowercase hex SHA-256 of a string's UTF-8 bytes with `node:crypto`: the core's
 * `sha256Hex`, with which it hashes the token of every request.
 */
export function nodeSha256Hex(text: string): string {
  if (oneShotHash !== undefined) return oneShotHash('sha256', text, 'hex');
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}
