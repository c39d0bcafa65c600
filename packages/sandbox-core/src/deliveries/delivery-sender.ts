/**
 * One HTTP attempt of a webhook delivery, as the core hands it to a transport: a `POST` of the
 * stored body to the endpoint's URL with the signed headers. Built afresh for each attempt, from
 * the same stored bytes.
 */
export interface DeliveryRequest {
  readonly method: 'POST';
  /** The endpoint's URL. */
  readonly url: string;
  /**
   * `Content-Type`, `User-Agent`, `X-SVC-Event`, `X-SVC-Delivery` and `X-SVC-Signature`, in their
   * canonical case.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The exact body text `{"event","timestamp","data"}`, byte-identical across attempts. */
  readonly body: string;
}

/**
 * What became of one attempt: the receiver's status (any status: the core decides that only a
 * 2xx succeeds, and a redirect must not be followed), or why no status came (`'No answer within 5
 * seconds.'`, `'Connection refused.'`).
 */
export type DeliveryOutcome = { readonly status: number } | { readonly error: string };

/**
 * The transport of webhook deliveries, injected into the core: sends one request and resolves
 * with its outcome; it should not reject. It gives up after `WEBHOOK_TIMEOUT_SECONDS` (5 s)
 * without a status and follows no redirect. The sandbox passes a Node HTTP sender; MSW handlers
 * pass one that captures the request.
 *
 * @example
 * ```ts
 * const sendDelivery: DeliverySender = async (request) => {
 *   const response = await fetch(request.url, { ...request, redirect: 'manual', signal: AbortSignal.timeout(5000) });
 *   return { status: response.status };
 * };
 * ```
 */
export type DeliverySender = (request: DeliveryRequest) => Promise<DeliveryOutcome>;
