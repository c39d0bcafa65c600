import type { DeliveryOutcome, DeliveryRequest } from '../../src/webhooks/attempts';

/** An attempt the fake transport holds until the test answers it. */
export interface HeldRequest {
  readonly request: DeliveryRequest;
  answer(outcome: DeliveryOutcome): void;
}

/**
 * A transport that records every request and answers with `respond` (200 by default), or holds
 * the request until the test answers it when `hold` is set.
 */
export function fakeTransport(respond: (request: DeliveryRequest) => DeliveryOutcome = () => ({ status: 200 })) {
  const requests: DeliveryRequest[] = [];
  const held: HeldRequest[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const transport = {
    requests,
    held,
    hold: false,
    respond,
    send(request: DeliveryRequest): Promise<DeliveryOutcome> {
      requests.push(request);
      for (const waiter of waiting.filter((waiter) => requests.length >= waiter.count)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
      if (!transport.hold) return Promise.resolve(transport.respond(request));
      return new Promise((resolve) => held.push({ request, answer: resolve }));
    },
    /** Resolves once `count` requests have been sent in all. */
    sent(count: number): Promise<void> {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ count, resolve }));
    },
  };
  return transport;
}
