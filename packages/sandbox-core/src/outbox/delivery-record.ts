import type { SandboxDelivery } from '@boundbook/types';

/**
 * A delivery as stored: the control API's `Delivery` plus its owner and the exact body bytes
 * (as a string) that every attempt sends and signs.
 */
export interface DeliveryRecord extends Readonly<SandboxDelivery> {
  readonly account_id: number;
  /** The JSON text `{"event","timestamp","data"}`, identical across attempts. */
  readonly body: string;
}
