import type { MatchSecret } from './match-secret';
import { readPayload } from './read-payload';
import { readSecrets } from './read-secrets';
import { readSignatureHex } from './read-signature-hex';

/**
 * `verifySignature` over a build's `matchSecret`: the arguments are checked before the header,
 * so a parsed body throws even when the signature is missing. Synchronous when `matchSecret` is
 * (node:crypto), so the Node build's `verifySignature` costs a single promise.
 *
 * @example
 * ```ts
 * await verifySignatureWith(matchNodeSecret, secret, body, header); // true or false
 * ```
 */
export function verifySignatureWith(matchSecret: MatchSecret, secret: unknown, payload: unknown, signature: unknown): boolean | Promise<boolean> {
  const secrets = readSecrets(secret, 'verifySignature');
  const bytes = readPayload(payload, 'verifySignature');
  const digestHex = readSignatureHex(signature);
  if (digestHex === undefined) return false;
  const index = matchSecret(secrets, bytes, digestHex);
  return typeof index === 'number' ? index >= 0 : index.then((found) => found >= 0);
}
