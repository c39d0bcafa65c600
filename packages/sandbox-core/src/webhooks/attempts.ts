import {
  HEADERS,
  WEBHOOK_DISABLE_AFTER_FAILURES,
  WEBHOOK_RETRY_DELAYS_SECONDS,
  WEBHOOK_USER_AGENT,
  type SandboxDeliveryAttempt,
} from '@fflkit/types';
import type { DeliveryRecord, WebhookRecord } from '../state/records';
import { findDelivery } from '../state/collections';
import type { AccountState, CoreStore } from '../state/store';
import { type HmacSha256Hex, signDelivery } from '../support/crypto';
import { formatInstant, formatTimestamp } from '../support/time';

// One attempt of a delivery: the signed request, the transport that sends it, and the record of
// its outcome with what follows from it (the next retry, the endpoint disabled).

/** The signed request of one delivery attempt, as a transport sends it. */
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

/** What an attempt came to: the receiver's status, or why there was none. */
export type DeliveryOutcome = { readonly status: number } | { readonly error: string };

/** A transport of deliveries: sends one signed request and resolves with its outcome. */
export type DeliverySender = (request: DeliveryRequest) => Promise<DeliveryOutcome>;

/**
 * The signed request of one attempt of a delivery: `POST` to the endpoint's URL, the stored body
 * as it is, `X-SVC-Delivery` the delivery's id (the same on every attempt) and `X-SVC-Signature`
 * the HMAC-SHA256 of the body keyed with the endpoint's whole secret.
 */
export function buildDeliveryRequest(
  delivery: DeliveryRecord,
  webhook: WebhookRecord,
  hmac?: HmacSha256Hex,
): DeliveryRequest {
  return {
    method: 'POST',
    url: webhook.url,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': WEBHOOK_USER_AGENT,
      [HEADERS.event]: delivery.event,
      [HEADERS.delivery]: delivery.id,
      [HEADERS.signature]: signDelivery(webhook.secret, delivery.body, hmac),
    },
    body: delivery.body,
  };
}

/**
 * Sends through a transport and resolves with an outcome the contract can record, whatever the
 * transport does: a rejection or a throw becomes `{ error }` with its message, and anything but
 * an integer `status` or a string `error` becomes an error that says so. Never rejects.
 */
export async function sendSafely(send: DeliverySender, request: DeliveryRequest): Promise<DeliveryOutcome> {
  let outcome: unknown;
  try {
    outcome = await send(request);
  } catch (error) {
    return { error: `The transport failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const value = outcome as Partial<Record<'status' | 'error', unknown>> | null | undefined;
  if (typeof value?.status === 'number' && Number.isInteger(value.status)) return { status: value.status };
  if (typeof value?.error === 'string') return { error: value.error };
  return { error: 'The transport answered neither a status nor an error.' };
}

/**
 * The transport of a core made without `sendDelivery`: it sends nothing, and every attempt fails
 * with a reason that says how to give the core a transport. The core never touches the network.
 */
export function sendWithoutTransport(_request: DeliveryRequest): Promise<DeliveryOutcome> {
  return Promise.resolve({ error: 'No transport: the core was made without sendDelivery, so nothing was sent.' });
}

/**
 * The `error` of an attempt that got no answer, from the code of the failure (a Node system
 * error or an undici socket error), in the words every face of the sandbox uses.
 *
 * @example
 * ```ts
 * import { describeDeliveryFailure } from '@fflkit/sandbox-core';
 *
 * describeDeliveryFailure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'); // 'Connection refused.'
 * describeDeliveryFailure(undefined, 'bad port'); // 'The request failed: bad port'
 * ```
 */
export function describeDeliveryFailure(code: string | undefined, message: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'Connection refused.';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The host name could not be resolved.';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'The connection was reset before an answer.';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'The host is unreachable.';
    default:
      return `The request failed: ${message}`;
  }
}

/**
 * The `error` of an attempt whose receiver did not answer in time.
 *
 * @example
 * ```ts
 * import { describeDeliveryTimeout } from '@fflkit/sandbox-core';
 *
 * describeDeliveryTimeout(5000); // 'No answer within 5 seconds.'
 * describeDeliveryTimeout(50); // 'No answer within 0.05 seconds.'
 * ```
 */
export function describeDeliveryTimeout(timeoutMs: number): string {
  const seconds = timeoutMs / 1000;
  return `No answer within ${Number.isInteger(seconds) ? seconds : seconds.toFixed(3).replace(/0+$/, '')} seconds.`;
}

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
 * Records an attempt of a delivery and what follows from it. A 2xx makes the delivery
 * `succeeded` (whatever its state) and resets the endpoint's count of consecutive failures.
 * Anything else adds one to that count; a failed scheduled attempt of a pending delivery
 * schedules the next retry after the contract's delay, to the millisecond, or fails the
 * delivery after the last one. The failure that brings the count to
 * `WEBHOOK_DISABLE_AFTER_FAILURES` disables the endpoint and cancels its pending deliveries. A
 * delivery that is gone (the account was reset) records nothing.
 */
export function recordAttempt(
  store: CoreStore,
  account: AccountState,
  deliveryId: string,
  result: AttemptResult,
): void {
  const delivery = findDelivery(account, deliveryId);
  if (delivery === undefined) return;
  const attempt = attemptOf(result);
  const status = attempt.status_code;
  const succeeded = status !== null && status >= 200 && status <= 299;
  const scheduled = delivery.scheduled_attempts + (result.kind === 'scheduled' ? 1 : 0);
  let next: Pick<DeliveryRecord, 'state' | 'next_attempt_at'> = delivery;
  if (succeeded) {
    next = { state: 'succeeded', next_attempt_at: null };
  } else if (result.kind === 'scheduled' && delivery.state === 'pending') {
    const delaySeconds = WEBHOOK_RETRY_DELAYS_SECONDS[scheduled - 1];
    next =
      delaySeconds === undefined
        ? { state: 'failed', next_attempt_at: null }
        : { state: 'pending', next_attempt_at: formatInstant(result.atMs + delaySeconds * 1000) };
  }
  // The failure that disables the endpoint cancels this delivery too: it is recorded as such in
  // one change, so that no follower hears of a next attempt that will never be made.
  if (next.state === 'pending' && !succeeded && disablesEndpoint(account, delivery.webhook_id)) {
    next = { state: 'cancelled', next_attempt_at: null };
  }
  store.put(account, 'deliveries', {
    ...delivery,
    state: next.state,
    next_attempt_at: next.next_attempt_at,
    attempts: insertInOrder(delivery.attempts, attempt),
    scheduled_attempts: scheduled,
  });
  countOutcome(store, account, delivery.webhook_id, succeeded, attempt.at);
}

/**
 * Records the second sending of an attempt that the endpoint's delivery chaos duplicated: one
 * more attempt with `duplicate: true`, and nothing else. Chaos changes how many attempts are
 * made, never what their outcomes decide, so the delivery's state, its retries and the
 * endpoint's count of consecutive failures stay as the first sending left them. A delivery that
 * is gone records nothing.
 */
export function recordDuplicate(
  store: CoreStore,
  account: AccountState,
  deliveryId: string,
  result: Omit<AttemptResult, 'kind'>,
): void {
  const delivery = findDelivery(account, deliveryId);
  if (delivery === undefined) return;
  const attempt: SandboxDeliveryAttempt = { ...attemptOf(result), duplicate: true };
  store.put(account, 'deliveries', { ...delivery, attempts: insertInOrder(delivery.attempts, attempt) });
}

/** The control API's record of an attempt as it went. */
function attemptOf(result: Omit<AttemptResult, 'kind'>): SandboxDeliveryAttempt {
  return {
    at: formatTimestamp(result.atMs),
    status_code: 'status' in result.outcome ? result.outcome.status : null,
    error: 'error' in result.outcome ? result.outcome.error : null,
    duration_ms: Math.round(Math.max(0, result.durationMs) * 10) / 10,
  };
}

/** Whether one more failure brings an enabled endpoint to the count that disables it. */
function disablesEndpoint(account: AccountState, webhookId: number): boolean {
  const webhook = account.webhooks.get(webhookId);
  return webhook?.enabled === true && webhook.consecutive_failures + 1 >= WEBHOOK_DISABLE_AFTER_FAILURES;
}

/** Keeps the endpoint's count of consecutive failures, and disables it at the limit. */
function countOutcome(
  store: CoreStore,
  account: AccountState,
  webhookId: number,
  succeeded: boolean,
  at: string,
): void {
  const webhook = account.webhooks.get(webhookId);
  if (webhook === undefined) return;
  const failures = succeeded ? 0 : webhook.consecutive_failures + 1;
  if (failures === webhook.consecutive_failures) return;
  const disable = !succeeded && disablesEndpoint(account, webhookId);
  store.put(account, 'webhooks', {
    ...webhook,
    consecutive_failures: failures,
    ...(disable && { enabled: false, updated_at: at }),
  });
  if (disable) cancelDeliveries(store, account, webhookId);
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

/**
 * Cancels every pending delivery of one endpoint of the account (the endpoint was deleted or
 * disabled): `cancelled`, no next attempt. Their scheduled attempts go stale and are never made.
 */
export function cancelDeliveries(store: CoreStore, account: AccountState, webhookId: number): void {
  for (const delivery of account.deliveries) {
    if (delivery.webhook_id !== webhookId || delivery.state !== 'pending') continue;
    store.put(account, 'deliveries', { ...delivery, state: 'cancelled', next_attempt_at: null });
  }
}
