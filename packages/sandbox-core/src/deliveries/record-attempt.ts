import {
  WEBHOOK_DISABLE_AFTER_FAILURES,
  WEBHOOK_RETRY_DELAYS_SECONDS,
  type SandboxDeliveryAttempt,
} from '@boundbook/types';
import { formatTimestamp } from '../clock/format-timestamp';
import type { DeliveryRecord } from '../outbox/delivery-record';
import type { AccountState } from '../state/account-state';
import type { CoreState } from '../state/core-state';
import { cancelDeliveries } from './cancel-deliveries';
import type { DeliveryOutcome } from './delivery-sender';
import { findDelivery } from './find-delivery';
import { putDelivery } from './put-delivery';

/**
 * Which attempt was made: the one the schedule called for (the first, or a retry), or one more
 * that a redelivery asked for, which leaves the schedule as it is unless it succeeds.
 */
export type AttemptKind = 'scheduled' | 'extra';

/** One attempt as it went. */
export interface AttemptResult {
  readonly kind: AttemptKind;
  /** When the attempt was made, on the account's clock, in epoch milliseconds. */
  readonly atMs: number;
  readonly outcome: DeliveryOutcome;
  readonly durationMs: number;
}

/**
 * Records an attempt of a delivery and what follows from it, as one state change reported to
 * the change feed. A 2xx makes the delivery `succeeded` (whatever its state) and resets the
 * endpoint's count of consecutive failures. Anything else adds one to that count; a failed
 * scheduled attempt of a pending delivery schedules the next retry after the contract's delay
 * (from the attempt's second), or fails the delivery after the last one. The failure that
 * brings the count to `WEBHOOK_DISABLE_AFTER_FAILURES` disables the endpoint and cancels its
 * pending deliveries. A delivery that is gone (the account was reset) records nothing.
 *
 * @example
 * ```ts
 * recordAttempt(state, account, delivery.id, { kind: 'scheduled', atMs, outcome: { status: 500 }, durationMs: 12 });
 * ```
 */
export function recordAttempt(
  state: CoreState,
  account: AccountState,
  deliveryId: string,
  result: AttemptResult,
): void {
  const delivery = findDelivery(account, deliveryId);
  if (delivery === undefined) return;
  const status = 'status' in result.outcome ? result.outcome.status : null;
  const succeeded = status !== null && status >= 200 && status <= 299;
  const attemptSecondMs = Math.floor(result.atMs / 1000) * 1000;
  const attempt: SandboxDeliveryAttempt = Object.freeze({
    at: formatTimestamp(attemptSecondMs),
    status_code: status,
    error: 'error' in result.outcome ? result.outcome.error : null,
    duration_ms: Math.round(Math.max(0, result.durationMs) * 10) / 10,
  });
  const scheduled = delivery.scheduled_attempts + (result.kind === 'scheduled' ? 1 : 0);
  let next: Pick<DeliveryRecord, 'state' | 'next_attempt_at'> = delivery;
  if (succeeded) {
    next = { state: 'succeeded', next_attempt_at: null };
  } else if (result.kind === 'scheduled' && delivery.state === 'pending') {
    const delaySeconds = WEBHOOK_RETRY_DELAYS_SECONDS[scheduled - 1];
    next =
      delaySeconds === undefined
        ? { state: 'failed', next_attempt_at: null }
        : { state: 'pending', next_attempt_at: formatTimestamp(attemptSecondMs + delaySeconds * 1000) };
  }
  putDelivery(
    state,
    account,
    Object.freeze({
      ...delivery,
      state: next.state,
      next_attempt_at: next.next_attempt_at,
      attempts: Object.freeze(insertInOrder(delivery.attempts, attempt)) as DeliveryRecord['attempts'],
      scheduled_attempts: scheduled,
    }),
  );
  countOutcome(state, account, delivery.webhook_id, succeeded, attempt.at);
  state.version += 1;
}

/** Keeps the endpoint's count of consecutive failures, and disables it at the limit. */
function countOutcome(
  state: CoreState,
  account: AccountState,
  webhookId: number,
  succeeded: boolean,
  at: string,
): void {
  const webhook = account.webhooks.get(webhookId);
  if (webhook === undefined) return;
  const failures = succeeded ? 0 : webhook.consecutive_failures + 1;
  if (failures === webhook.consecutive_failures) return;
  const disable = webhook.enabled && failures >= WEBHOOK_DISABLE_AFTER_FAILURES;
  const updated = Object.freeze({
    ...webhook,
    consecutive_failures: failures,
    ...(disable && { enabled: false, updated_at: at }),
  });
  account.webhooks.set(webhookId, updated);
  state.feed.upsert('webhooks', updated);
  if (disable) cancelDeliveries(state, account, webhookId);
}

/** The attempts with one more, oldest first (attempts made at once may end in any order). */
function insertInOrder(
  attempts: readonly SandboxDeliveryAttempt[],
  attempt: SandboxDeliveryAttempt,
): SandboxDeliveryAttempt[] {
  const list = [...attempts, attempt];
  for (let i = list.length - 1; i > 0 && list[i - 1]!.at > attempt.at; i -= 1) {
    list[i] = list[i - 1]!;
    list[i - 1] = attempt;
  }
  return list;
}
