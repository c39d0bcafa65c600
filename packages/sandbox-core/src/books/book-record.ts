/** A book as stored; its counts are kept in the account's indexes, not in the record. */
export interface BookRecord {
  readonly id: number;
  readonly account_id: number;
  readonly name: string;
  readonly created_at: string;
}
