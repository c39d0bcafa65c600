import { HEADERS, type SandboxRequestLogFault } from '@fflkit/types';
import type { FaultRecord } from '../state/records';
import type { AccountState } from '../state/store';
import { seededDraw } from '../support/crypto';
import type { SandboxResponse } from '../support/request';

// What an account's fault rules do to a request of the service API: which rule fires, drawn in
// a repeatable way, and the answer it makes. The router asks before the operation runs and,
// when none fired, once the operation succeeded (the rules after acting).

/** The header that names the rule behind an answer a fault rule made or delayed. */
export const FAULT_HEADER = 'X-Sandbox-Fault';

/**
 * The first rule, in id order, that acts before the operation and fires on a request of
 * `operationId`: a status or a drop, which then stands in for the operation, or a delay of its
 * answer. Each rule consulted that can fire counts as drawn.
 */
export function ruleBefore(account: AccountState, operationId: string): FaultRecord | undefined {
  return firstFiring(account, operationId, false);
}

/** The first rule that acts after the operation, once it succeeded, and fires. */
export function ruleAfter(account: AccountState, operationId: string): FaultRecord | undefined {
  return firstFiring(account, operationId, true);
}

function firstFiring(account: AccountState, operationId: string, afterActing: boolean): FaultRecord | undefined {
  for (const rule of account.faults) {
    if (rule.after_acting !== afterActing || !rule.operations.has(operationId)) continue;
    if (rule.times !== null && rule.fired >= rule.times) continue;
    if (fires(rule)) {
      rule.fired += 1;
      return rule;
    }
  }
  return undefined;
}

/**
 * Whether the rule fires this time. A probability strictly between 0 and 1 takes one draw of the
 * rule's own generator (mulberry32, seeded with the rule's `seed`), so that the same requests
 * meet the same faults on every run, whatever the other rules do.
 */
function fires(rule: FaultRecord): boolean {
  if (rule.probability >= 1) return true;
  if (rule.probability <= 0) return false;
  const [state, value] = seededDraw(rule.draws);
  rule.draws = state;
  return value < rule.probability;
}

/** What the request log says of a rule's act; `withheld` is the status an after-acting rule kept back. */
export function faultMark(rule: FaultRecord, withheld?: number): SandboxRequestLogFault {
  return {
    rule: rule.id,
    action: rule.action,
    after_acting: rule.after_acting,
    delay_ms: rule.delay_ms,
    withheld_status: withheld ?? null,
  };
}

/** What a failing rule (a status or a drop) gives the client, by whom and with what effect. */
interface FailedAnswer {
  readonly rule: FaultRecord;
  /** The rate-limit headers of the counted request. */
  readonly rateHeaders: Readonly<Record<string, string>>;
  /** Real time, in epoch milliseconds, as the rate limit counts it (never the account's clock). */
  readonly realMs: number;
  /** The status the operation answered, when the rule acted after it. */
  readonly withheld?: number | undefined;
}

/**
 * The answer of a failing rule: a dropped connection (status 0, no body), or the rule's status
 * in the contract's error shape with `X-Sandbox-Fault`, the rate-limit headers, and
 * `Retry-After` (plus `X-RateLimit-Reset` on a 429) where the rule gives one.
 */
export function failedAnswer({ rule, rateHeaders, realMs, withheld }: FailedAnswer): SandboxResponse {
  const fault = { rule: rule.id, delayMs: rule.delay_ms, drop: rule.action === 'drop' };
  if (fault.drop) return { status: 0, headers: {}, fault };
  const status = rule.status!;
  const headers: Record<string, string> = { ...rateHeaders, [FAULT_HEADER]: String(rule.id) };
  if (rule.retry_after !== null) headers[HEADERS.retryAfter] = String(rule.retry_after);
  // As the rate limit's own 429: the second of the answer plus Retry-After, the same moment.
  if (status === 429) headers[HEADERS.rateLimitReset] = String(Math.floor(realMs / 1000) + (rule.retry_after ?? 0));
  const effect =
    withheld === undefined
      ? 'before acting, so the request changed nothing'
      : `after acting: the request's change was made and kept (its answer was ${withheld})`;
  const message = `Injected by the sandbox's fault rule ${rule.id}: ${status} ${effect}. DELETE /_sandbox/faults/${rule.id} removes the rule.`;
  return { status, headers, body: { message }, fault };
}

/** The answer of the operation, held back by a delay rule: marked, for the transport to wait. */
export function delayedAnswer(response: SandboxResponse, rule: FaultRecord): SandboxResponse {
  return {
    ...response,
    headers: { ...response.headers, [FAULT_HEADER]: String(rule.id) },
    fault: { rule: rule.id, delayMs: rule.delay_ms, drop: false },
  };
}
