import type { SandboxClock } from '@fflkit/types';
import Joi from 'joi';
import type { AccountOperation } from '../state/operation';
import { inputShape, readInput } from '../support/input';
import { formatTimestamp } from '../support/time';
import { PendingAnswer } from '../webhooks/deliveries';

// Each account's clock: the wall clock moved by an offset that only ever grows, so a test can
// make a retry fall due or a date pass without waiting.

const MAX_SECONDS = 31_536_000;
/** The latest moment an account's clock may show: timestamps have four-digit years. */
export const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/** `GET /_sandbox/clock`: the account's time and its offset from the wall clock. */
export const getClock: AccountOperation = ({ account, nowMs }) => {
  const data: SandboxClock = { now: formatTimestamp(nowMs), offset_seconds: account.record.offset_seconds };
  return { status: 200, body: { data } };
};

const ADVANCE_INPUT = inputShape<{ seconds: number }>(['seconds'], () =>
  Joi.object({ seconds: Joi.number().strict().integer().min(1).max(MAX_SECONDS).required() }),
);

/**
 * `POST /_sandbox/clock/advance`: moves the account's clock forward by 1 s to a year, then makes
 * every delivery attempt that falls due in between, in order of due time, each at the moment it
 * fell due, before answering with the clock.
 */
export const advanceClock: AccountOperation = ({ store, request, account, nowMs }) => {
  const { seconds } = readInput(ADVANCE_INPUT, request.body, (value, errors) => {
    if (value.seconds !== undefined && nowMs + value.seconds * 1000 > LATEST_MS) {
      errors.add('seconds', 'The seconds field would move the clock past 9999-12-31T23:59:59Z.');
    }
  });
  store.put(account, 'accounts', { ...account.record, offset_seconds: account.record.offset_seconds + seconds });
  const toMs = nowMs + seconds * 1000;
  const clock: SandboxClock = { now: formatTimestamp(toMs), offset_seconds: account.record.offset_seconds };
  const work = { kind: 'advance', accountId: account.record.id, fromMs: nowMs, toMs } as const;
  return { status: 200, body: new PendingAnswer(work, () => ({ data: clock })) };
};
