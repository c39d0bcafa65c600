/** Attempts that an answer waits for. */
export type DeliveryWork =
  /** One attempt of one delivery, now: a ping's first (scheduled) or a redelivery (extra). */
  | { readonly kind: 'attempt'; readonly accountId: number; readonly deliveryId: string; readonly scheduled: boolean }
  /** Every attempt of the account that falls due up to `toMs`, in order of due time. */
  | { readonly kind: 'advance'; readonly accountId: number; readonly fromMs: number; readonly toMs: number };

/**
 * The body of an answer that waits for delivery attempts. Operations run synchronously: one
 * that must attempt before answering (ping, redeliver, clock advance) makes its state change,
 * then answers with a `PendingAnswer` naming the attempts; the core makes them through its
 * transport and answers `render()`, called once they are recorded.
 *
 * @example
 * ```ts
 * return {
 *   status: 200,
 *   body: new PendingAnswer({ kind: 'attempt', accountId, deliveryId, scheduled: true }, () => ({ data: renderDelivery(delivery) })),
 * };
 * ```
 */
export class PendingAnswer {
  readonly work: DeliveryWork;
  readonly render: () => unknown;

  constructor(work: DeliveryWork, render: () => unknown) {
    this.work = work;
    this.render = render;
  }
}
