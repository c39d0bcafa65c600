import { describeValue } from '../errors/describe-value';
import { misuseError } from '../errors/misuse-error';

/**
 * The raw request body: the exact bytes received, as text or bytes (`Buffer` is a `Uint8Array`).
 * Never a parsed object: the signature covers the bytes, and `JSON.stringify` of a parsed body
 * does not give them back.
 */
export type WebhookPayload = string | Uint8Array | ArrayBuffer | ArrayBufferView;

/**
 * The payload as a string or a `Uint8Array` over the same bytes; throws a `TypeError` for
 * anything else, saying to pass the raw body.
 *
 * @example
 * ```ts
 * readPayload(await request.arrayBuffer(), 'verifySignature'); // Uint8Array
 * ```
 */
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
