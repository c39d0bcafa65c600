import type { SandboxRequestLogEntry } from '@boundbook/types';

/** A logged request as stored: the control API's `RequestLogEntry` plus its account. */
export interface RequestLogRecord extends Readonly<SandboxRequestLogEntry> {
  readonly account_id: number;
}
