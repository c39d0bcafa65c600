import { DeliverySchedule } from '../deliveries/delivery-schedule';
import type { TokenRecord } from '../tokens/token-record';
import type { AccountState } from './account-state';
import { ChangeFeed } from './change-feed';

/** Last id given out per kind of record; ids are global across accounts, as in a database. */
export interface Sequences {
  account: number;
  token: number;
  book: number;
  receipt: number;
  audit: number;
  webhook: number;
  document: number;
}

/** Everything a sandbox core holds. Each core has its own; nothing lives at module level. */
export interface CoreState {
  /** Increases with every change to persistent state. */
  version: number;
  /** Last id given to a request log entry; the log is diagnostics and is not persisted. */
  lastRequestId: number;
  readonly sequences: Sequences;
  readonly accounts: Map<number, AccountState>;
  /** Every token, revoked ones included, by the sha256 hex hash of its string. */
  readonly tokensByHash: Map<string, TokenRecord>;
  /** Where every change to a stored record is reported, for a persister. */
  readonly feed: ChangeFeed;
  /** The scheduled delivery attempts of every account, by due time; derived, not persisted. */
  readonly schedule: DeliverySchedule;
}

/**
 * An empty state.
 *
 * @example
 * ```ts
 * const state = createCoreState();
 * ```
 */
export function createCoreState(): CoreState {
  return {
    version: 0,
    lastRequestId: 0,
    sequences: {
      account: 0,
      token: 0,
      book: 0,
      receipt: 0,
      audit: 0,
      webhook: 0,
      document: 0,
    },
    accounts: new Map(),
    tokensByHash: new Map(),
    feed: new ChangeFeed(),
    schedule: new DeliverySchedule(),
  };
}

/**
 * The next id of a kind of record.
 *
 * @example
 * ```ts
 * const id = nextId(state, 'receipt');
 * ```
 */
export function nextId(state: CoreState, kind: keyof Sequences): number {
  state.sequences[kind] += 1;
  return state.sequences[kind];
}
