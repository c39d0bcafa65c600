import type { SandboxAccount } from '@boundbook/types';

/** An account as stored: the control API's `Account` plus how far its clock was advanced. */
export interface AccountRecord extends Readonly<SandboxAccount> {
  readonly offset_seconds: number;
}
