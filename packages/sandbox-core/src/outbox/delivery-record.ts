import type { SandboxDelivery } from '@boundbook/types';

/**
 * A delivery as stored: the control API's `Delivery` plus its owner, the exact body bytes (as a
 * string) that every attempt sends and signs, and how many of its scheduled attempts were made.
 */
export interface DeliveryRecord extends Readonly<SandboxDelivery> {
  readonly account_id: number;
  /** The JSON text `{"event","timestamp","data"}`, identical across attempts. */
  readonly body: string;
  /**
   * Scheduled attempts made so far: the first and each retry, not redeliveries. It picks the
   * delay before the next retry, and the delivery fails once the last retry has failed.
   */
  readonly scheduled_attempts: number;
}
