import type { AuditEntry } from '@boundbook/types';

/** An audit entry as stored: the contract's `AuditEntry` plus the receipt it belongs to. */
export interface AuditRecord extends Readonly<AuditEntry> {
  readonly receipt_id: number;
}
