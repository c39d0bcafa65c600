import Joi from 'joi';
import { PendingAnswer } from '../deliveries/pending-answer';
import { pickFields } from '../http/pick-fields';
import { readJsonObject } from '../http/read-json-object';
import type { AccountOperation } from '../routing/operation';
import { FieldErrors } from '../validation/field-errors';
import { lazySchema } from '../validation/lazy-schema';
import { validateFields } from '../validation/validate-fields';
import { validationFailed } from '../validation/validation-failed';
import { getClock } from './get-clock';

const FIELDS = ['seconds'] as const;
/** At most one year per call. */
const MAX_SECONDS = 31_536_000;
/** The latest moment an RFC 3339 timestamp with a four-digit year can write. */
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
const SCHEMA = lazySchema(() => Joi.object({
  seconds: Joi.number().strict().integer().min(1).max(MAX_SECONDS).required(),
}));

/**
 * `POST /_sandbox/clock/advance`: moves the account's clock forward; it never goes back, nor
 * past the year 9999. The answer waits for every delivery attempt of the account that falls due
 * within the skipped time (and any already due), made in order of due time, each on the clock
 * as it was at its due time, so that it reflects their outcomes.
 *
 * @example
 * ```ts
 * // body: { "seconds": 60 }
 * advanceClock(context).body; // a PendingAnswer: { data: { now: ..., offset_seconds: 60 } } once the attempts are made
 * ```
 */
export const advanceClock: AccountOperation = (context) => {
  const { state, request, account, nowMs } = context;
  const errors = new FieldErrors();
  const body = pickFields(readJsonObject(request.body), FIELDS);
  const value = validateFields(SCHEMA, body, errors, new Set(FIELDS));
  const seconds = value['seconds'] as number | undefined;
  if (seconds !== undefined && nowMs + seconds * 1000 > LATEST_MS) {
    errors.add('seconds', 'The seconds field would move the clock past 9999-12-31T23:59:59Z.');
  }
  if (!errors.isEmpty || seconds === undefined) throw validationFailed(errors, FIELDS);
  account.record = Object.freeze({
    ...account.record,
    offset_seconds: account.record.offset_seconds + seconds,
  });
  state.feed.upsert('accounts', account.record);
  state.version += 1;
  const toMs = nowMs + seconds * 1000;
  const clock = getClock({ ...context, nowMs: toMs });
  const work = { kind: 'advance', accountId: account.record.id, fromMs: nowMs, toMs } as const;
  return { status: clock.status, body: new PendingAnswer(work, () => clock.body) };
};
