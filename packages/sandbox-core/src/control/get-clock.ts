import type { SandboxClock } from '@boundbook/types';
import { formatTimestamp } from '../clock/format-timestamp';
import type { AccountOperation } from '../routing/operation';

/**
 * `GET /_sandbox/clock`: the account's time and how far it was advanced.
 *
 * @example
 * ```ts
 * getClock(context).body; // { data: { now: '2025-03-14T15:05:05Z', offset_seconds: 60 } }
 * ```
 */
export const getClock: AccountOperation = ({ account, nowMs }) => {
  const data: SandboxClock = {
    now: formatTimestamp(nowMs),
    offset_seconds: account.record.offset_seconds,
  };
  return { status: 200, body: { data } };
};
