import { WEBHOOK_RETRY_DELAYS_SECONDS } from '@boundbook/types';
import { WebhookVerificationError } from '../errors/webhook-verification-error';

const RETRY_SCHEDULE_SECONDS = WEBHOOK_RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0);

/**
 * Throws a `WebhookVerificationError` (`timestamp_out_of_tolerance`) when the event's timestamp
 * is more than `toleranceSeconds` away from now, either way, or is not a date-time.
 *
 * @example
 * ```ts
 * checkTolerance('2025-03-14T15:04:05Z', 300, Date.now());
 * ```
 */
export function checkTolerance(timestamp: string, toleranceSeconds: number, nowMs: number): void {
  const eventMs = Date.parse(timestamp);
  if (Number.isNaN(eventMs)) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `the event's timestamp "${timestamp}" is not a date-time, so it cannot be checked against toleranceSeconds.`,
    );
  }
  const distanceSeconds = Math.abs(nowMs - eventMs) / 1000;
  if (distanceSeconds > toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `the event's timestamp ${timestamp} is ${Math.round(distanceSeconds)} s from now, more than toleranceSeconds (${toleranceSeconds}). Check the receiver's clock. Every retry of a delivery keeps the first attempt's timestamp, and retries come up to ${RETRY_SCHEDULE_SECONDS} s later, so a tolerance shorter than that refuses genuine retries.`,
    );
  }
}
