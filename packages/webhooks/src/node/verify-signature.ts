import type { WebhookPayload } from '../signature/read-payload';
import type { WebhookSecret } from '../signature/read-secrets';
import { verifySignatureWith } from '../signature/verify-signature-with';
import { matchNodeSecret } from './match-secret';

/**
 * Whether `signature` (the `X-SVC-Signature` header) is the signature of `payload` (the raw
 * body) under `secret`, or under any of several secrets while rotating. Compared in constant
 * time. A missing or malformed header resolves to `false`; a secret that is not a string, or a
 * payload that is a parsed object rather than the raw body, rejects with a `TypeError`.
 *
 * @example
 * ```ts
 * const ok = await verifySignature(process.env.WEBHOOK_SECRET!, rawBody, request.headers.get('x-svc-signature'));
 * if (!ok) return new Response(null, { status: 401 });
 * ```
 */
export async function verifySignature(
  secret: WebhookSecret,
  payload: WebhookPayload,
  signature: string | null | undefined,
): Promise<boolean> {
  return verifySignatureWith(matchNodeSecret, secret, payload, signature);
}
