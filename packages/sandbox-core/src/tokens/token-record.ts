import type { SandboxToken } from '@boundbook/types';

/** A token as stored: only the sha256 hex hash of the token string is kept. */
export interface TokenRecord extends Readonly<SandboxToken> {
  readonly account_id: number;
  readonly hash: string;
  /** When the token was revoked; a revoked token gets 401 but its requests stay in the log. */
  readonly revoked_at: string | null;
}
