import type { DeliveryOutcome, DeliveryRequest, DeliverySender } from '@boundbook/sandbox-core';
import type { CapturedDelivery } from './mock-boundbook-types';

/** How long a receiver has to answer a real delivery, as the service: 5 s. */
const TIMEOUT_MS = 5000;

/**
 * A transport of webhook deliveries that records each attempt in `captured`. Unless `deliver` is
 * true it sends nothing and reports a 200; otherwise it POSTs the attempt with `fetch` (no
 * redirect followed, 5 s time-out) and reports the status, or why none came.
 *
 * @example
 * ```ts
 * const captured: CapturedDelivery[] = [];
 * const core = createSandboxCore({ sendDelivery: createCapturingSender(captured, false) });
 * ```
 */
export function createCapturingSender(captured: CapturedDelivery[], deliver: boolean): DeliverySender {
  return async (request: DeliveryRequest): Promise<DeliveryOutcome> => {
    captured.push({ url: request.url, headers: { ...request.headers }, body: request.body });
    if (!deliver) return { status: 200 };
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      // Drained rather than cancelled: under msw/node, cancelling the body of a request let through
      // to the network never settles (mswjs/interceptors#799), so each attempt lasted the whole
      // time-out. The time-out still bounds the read, and the status is known already.
      await response.arrayBuffer().catch(() => undefined);
      return { status: response.status };
    } catch (error) {
      if (error instanceof DOMException && error.name === 'TimeoutError') return { error: 'No answer within 5 seconds.' };
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };
}
