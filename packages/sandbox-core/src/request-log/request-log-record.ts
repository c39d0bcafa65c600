import type { SandboxRequestLogEntry } from '@boundbook/types';

/**
 * A logged request as stored: the control API's `RequestLogEntry` plus its account, with the
 * moment it arrived kept as a number and written as `at` only when the log is read, so that
 * logging costs a request no date formatting.
 */
export interface RequestLogRecord extends Readonly<Omit<SandboxRequestLogEntry, 'at'>> {
  /** The account's clock when the request arrived, in epoch milliseconds. */
  readonly received_ms: number;
  readonly account_id: number;
}
