import {
  describeDeliveryFailure,
  describeDeliveryTimeout,
  type DeliveryOutcome,
  type DeliveryRequest,
  type DeliverySender,
} from '@fflkit/sandbox-core';
import { WEBHOOK_TIMEOUT_SECONDS } from '@fflkit/types';

// The mock's transport of webhook deliveries: every attempt the core makes is kept as it was
// signed, and sent with `fetch` only when a test asks for real deliveries.

/**
 * One captured attempt of a webhook delivery, exactly as it was (or would have been) sent.
 *
 * @example
 * ```ts
 * import { createMockLogbook, type CapturedDelivery } from '@fflkit/msw';
 * import { constructEvent } from '@fflkit/webhooks';
 *
 * declare const secret: string;
 * const mock = createMockLogbook({ baseUrl: 'https://logbook.example.test/rest/v1' });
 * const delivery: CapturedDelivery | undefined = mock.deliveries.at(-1);
 * if (delivery) await constructEvent(delivery.body, delivery.headers, { secret });
 * ```
 */
export interface CapturedDelivery {
  /** The endpoint's URL. */
  readonly url: string;
  /** `Content-Type`, `User-Agent`, `X-SVC-Event`, `X-SVC-Delivery` and `X-SVC-Signature`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The exact body text that was signed. */
  readonly body: string;
}

/**
 * A transport of webhook deliveries that records each attempt in `captured`. Unless `deliver` is
 * true it sends nothing and reports a 200; otherwise it POSTs the attempt with `fetch` (no
 * redirect followed, within `timeoutMs`: the service's 5 s unless a test says otherwise) and
 * reports the status, or why none came, in the sandbox's words.
 */
export function createCapturingSender(
  captured: CapturedDelivery[],
  deliver: boolean,
  timeoutMs = WEBHOOK_TIMEOUT_SECONDS * 1000,
): DeliverySender {
  return async (request: DeliveryRequest): Promise<DeliveryOutcome> => {
    captured.push({ url: request.url, headers: { ...request.headers }, body: request.body });
    if (!deliver) return { status: 200 };
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      return { error: describeFetchFailure(error, timeoutMs) };
    }
    // Drained rather than cancelled: under msw/node, cancelling the body of a request let through
    // to the network never settles (mswjs/interceptors#799). The status is known already, as the
    // sandbox's is once the headers are in; the time-out still cuts off a body that never ends.
    await response.arrayBuffer().catch(() => undefined);
    // Browsers hide a redirect's status behind an opaque answer (status 0).
    if (response.type === 'opaqueredirect')
      return { error: 'The endpoint answered with a redirect, which is not followed.' };
    return { status: response.status };
  };
}

function describeFetchFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return describeDeliveryTimeout(timeoutMs);
  // Node's fetch (undici) rejects with "fetch failed" and puts the socket's error, with its code, in `cause`.
  const cause = error instanceof Error ? error.cause : undefined;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return describeDeliveryFailure(code, message);
}
