import type {
  AuditEntry,
  DeletedReceipt,
  Receipt,
  SandboxAccount,
  SandboxDelivery,
  SandboxFault,
  SandboxRequestLogEntry,
  SandboxToken,
  SandboxWebhookChaos,
  WebhookEndpoint,
} from '@fflkit/types';

/**
 * Fields of `POST /receipts` and `PUT /receipts/{id}`, in the contract's order, which is also
 * the order of the fields in a 422's `errors`.
 */
export const RECEIPT_FIELDS = [
  'book',
  'serial_number',
  'manufacturer',
  'importer',
  'country_of_origin',
  'model',
  'type',
  'caliber',
  'receipt_date',
  'purchase_amount',
  'received_from',
  'ffl_license',
  'address',
  'city',
  'state',
  'zip',
] as const satisfies readonly (keyof Receipt)[];

// The records a core stores, as its snapshots and change sets carry them: the contract's
// resources plus what the store needs besides (owners, hashes, secrets, counters). Records are
// immutable: a change puts a new object in place of the old one.

/** An account as stored: the control API's `Account` plus the offset of its clock. */
export interface AccountRecord extends Readonly<SandboxAccount> {
  readonly offset_seconds: number;
}

/** A token as stored: only the hash of its value, never the value itself. */
export interface TokenRecord extends Readonly<SandboxToken> {
  readonly account_id: number;
  readonly hash: string;
  /** When the token was revoked; a revoked token gets 401 but its requests stay in the log. */
  readonly revoked_at: string | null;
}

/** A book as stored. */
export interface BookRecord {
  readonly id: number;
  readonly account_id: number;
  readonly name: string;
  readonly created_at: string;
  /** The highest record number given in the book so far, deleted receipts included; never reused. */
  readonly last_record: number;
}

/** An audit entry as stored: the contract's `AuditEntry` plus the receipt it belongs to. */
export interface AuditRecord extends Readonly<AuditEntry> {
  readonly receipt_id: number;
}

/** A webhook endpoint as stored. */
export interface WebhookRecord extends Readonly<WebhookEndpoint> {
  readonly account_id: number;
  /** The signing secret, `whsec_...`, shown once when the endpoint is made. */
  readonly secret: string;
  /**
   * Failed attempts to the endpoint since its last success (or since it was made or re-enabled);
   * the endpoint is disabled when it reaches `WEBHOOK_DISABLE_AFTER_FAILURES`.
   */
  readonly consecutive_failures: number;
  /**
   * The endpoint's delivery chaos and how far it has gone, or `null` when its deliveries are sent
   * as the service sends them.
   */
  readonly chaos: WebhookChaosRecord | null;
}

/** An endpoint's delivery chaos as stored: its settings, and the state its draws depend on. */
export interface WebhookChaosRecord extends Readonly<SandboxWebhookChaos> {
  /** Deliveries made to the endpoint under these settings: the index each draw is keyed on. */
  readonly made: number;
  /** The window of `reorder` that still takes deliveries, or `null` when none is open. */
  readonly window: ChaosWindowRecord | null;
}

/** A window of deliveries held by `reorder` until it is full or its hold ends. */
export interface ChaosWindowRecord {
  /** The index (in `made`) of its first delivery, which its order is drawn from. */
  readonly first: number;
  /** When it opened, on the account's clock, in epoch milliseconds; it is released `hold_ms` later. */
  readonly opened_ms: number;
  /** Its deliveries, in the order they were made. */
  readonly ids: readonly string[];
}

/**
 * A delivery as stored: the control API's `Delivery` plus its owner, the exact body bytes (as a
 * string) that every attempt sends and signs, and how many of its scheduled attempts were made.
 */
export interface DeliveryRecord extends Readonly<SandboxDelivery> {
  readonly account_id: number;
  /** The JSON text `{"event","timestamp","data"}`, identical across attempts. */
  readonly body: string;
  /**
   * Scheduled attempts made so far: the first and each retry, not redeliveries. It picks the
   * delay before the next retry, and the delivery fails once the last retry has failed.
   */
  readonly scheduled_attempts: number;
  /**
   * Its place in the shuffled order of the window of delivery chaos it was held in: among the
   * attempts due at the same moment, those of lower rank go first, and the attempts of ranked
   * deliveries of one endpoint are made one at a time. Absent when it was not held.
   */
  readonly rank?: number;
  /** Whether delivery chaos chose it to have every attempt sent twice. Absent when not. */
  readonly duplicate?: boolean;
}

/** An answered request in the request log: diagnostics, kept in memory only. */
export interface RequestLogRecord extends Readonly<Omit<SandboxRequestLogEntry, 'at'>> {
  /** The account's clock when the request arrived, in epoch milliseconds. */
  readonly received_ms: number;
  /** What the entry weighs against the log's limit of bytes: its path, query, header values and body. */
  readonly size: number;
}

/**
 * A fault rule of an account, kept in memory only (a restarted sandbox has none): the control
 * API's `Fault` without its count, which changes as it fires, plus what it matches and the state
 * of its draws.
 */
export interface FaultRecord extends Readonly<Omit<SandboxFault, 'fired'>> {
  /** The operationIds of the service API the rule acts on. */
  readonly operations: ReadonlySet<string>;
  /** Requests it acted on; the rule is spent when this reaches `times`. */
  fired: number;
  /** The state of the generator of its draws, which starts from `seed`. */
  draws: number;
}

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

/** The record type of each collection of a snapshot, by the collection's name. */
export interface CoreCollections {
  accounts: AccountRecord;
  tokens: TokenRecord;
  books: BookRecord;
  receipts: Receipt;
  deleted_receipts: DeletedReceipt;
  audit: AuditRecord;
  webhooks: WebhookRecord;
  deliveries: DeliveryRecord;
}

/** The name of a collection of a snapshot, such as `'receipts'`. */
export type CoreCollection = keyof CoreCollections;

/** A stored record of any collection. */
export type CoreRecord = CoreCollections[CoreCollection];

/** The names of every collection of a snapshot, in the order a snapshot lists them. */
export const CORE_COLLECTIONS: readonly CoreCollection[] = [
  'accounts',
  'tokens',
  'books',
  'receipts',
  'deleted_receipts',
  'audit',
  'webhooks',
  'deliveries',
];

/** A record put in place, new or replacing the record of the same id in its collection. */
export interface CoreUpsert<C extends CoreCollection = CoreCollection> {
  op: 'upsert';
  collection: C;
  /** The stored, immutable record itself. */
  record: CoreCollections[C];
}

/** The record of an id taken out of its collection. */
export interface CoreRemoval<C extends CoreCollection = CoreCollection> {
  op: 'remove';
  collection: C;
  id: CoreCollections[C]['id'];
}

/** One change to one record of a snapshot's collections. */
export type CoreChange = { [C in CoreCollection]: CoreUpsert<C> | CoreRemoval<C> }[CoreCollection];

/**
 * The record-level changes that lead a core's state from version `base` to version `version`,
 * in the order they were made, with the id sequences as of `version`. Applied in order to a
 * snapshot of version `base`, they give the snapshot of version `version`.
 */
export interface CoreChangeSet {
  /** The version the changes start from. */
  base: number;
  /** The version the changes lead to. */
  version: number;
  /** Last id given out per kind of record, as of `version`. */
  sequences: Sequences;
  changes: CoreChange[];
}

/**
 * The whole persistent state as plain JSON. Records are immutable: a change replaces the record
 * object, so a persister may cache each record's serialisation by object identity.
 */
export interface SandboxSnapshot {
  format: number;
  [collection: string]: unknown;
}

/**
 * The collections of a snapshot: flat arrays of the stored records (the same objects the core
 * holds, never copies) and the id sequences. Rate-limit windows and the request log are
 * diagnostics kept in memory only, not part of it.
 */
export interface CoreSnapshot extends SandboxSnapshot {
  /** The state's version when the snapshot was taken. */
  version: number;
  sequences: Sequences;
  accounts: AccountRecord[];
  tokens: TokenRecord[];
  books: BookRecord[];
  /** Live receipts. */
  receipts: Receipt[];
  /** Soft-deleted receipts, each with `deleted_at`. */
  deleted_receipts: DeletedReceipt[];
  audit: AuditRecord[];
  webhooks: WebhookRecord[];
  /** Deliveries of every account, oldest first per account. */
  deliveries: DeliveryRecord[];
}

/**
 * Freezes `value` and every object in it, and answers it. Stored records, kept answers and logged
 * bodies are deeply frozen: a change replaces them, so their JSON bytes may be kept by identity
 * (see the sandbox's body serialiser). An object already frozen is taken as frozen through.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  // for...in rather than Object.values: it allocates nothing, and these are plain objects.
  for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
