import { WebhookVerificationError } from '../errors/webhook-verification-error';
import type { UnknownWebhookEvent } from './unknown-webhook-event';

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The delivery body parsed as `{ event, timestamp, data }`; throws a `WebhookVerificationError`
 * (`invalid_json`) for text that is not JSON, bytes that are not UTF-8, or JSON of another shape.
 * Called only on a body whose signature matched.
 *
 * @example
 * ```ts
 * parseEventBody('{"event":"ping","timestamp":"2025-03-01T10:05:00Z","data":{"webhook_id":7,"message":"hi"}}');
 * ```
 */
export function parseEventBody(payload: string | Uint8Array): UnknownWebhookEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof payload === 'string' ? payload : decoder.decode(payload));
  } catch {
    throw new WebhookVerificationError(
      'invalid_json',
      'the signed body is not valid UTF-8 JSON: pass the raw request body exactly as received.',
    );
  }
  if (!isEnvelope(parsed)) {
    throw new WebhookVerificationError(
      'invalid_json',
      'the signed body is JSON but not a webhook event: expected an object with a string "event", a string "timestamp" and an object "data".',
    );
  }
  return parsed;
}

function isEnvelope(value: unknown): value is UnknownWebhookEvent {
  if (!isObject(value)) return false;
  const { event, timestamp, data } = value as Record<string, unknown>;
  return typeof event === 'string' && typeof timestamp === 'string' && isObject(data);
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
