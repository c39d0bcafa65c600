import type { Receipt } from '@boundbook/types';
import { CreationEntry, creationEntry, CreationTexts } from './audit-trails';
import type { AuditRecord } from './records';

// What the records of a snapshot become as a reader parses them, before the core restores them.
//
// Performance: a reader that passes each record through a reviver as it parses it never holds a
// large snapshot as plain objects: audit entries `created` become `CreationEntry`s (about 60
// bytes instead of 750) and the strings that repeat across receipts (makers, models, suppliers,
// moments) are held once, one record at a time. Most entries `created` are not even parsed: the
// text their receipt implies (written by `CreationTexts`) is compared with theirs, in half the
// time of parsing it. A data file of a million receipts then opens within the million
// benchmark's targets (at most 5 s, peak RSS at most 1.5 GB). It relies on a snapshot listing
// receipts before the audit entries that name them, as `snapshotStore` lists them; an entry met
// before its receipt is only kept whole.

/**
 * What a snapshot reader passes each record of a collection through as it reads it, in the
 * snapshot's order: it answers the record to keep in its place, equal to the record in value
 * (`JSON.stringify` gives the same text) but in the form the core keeps it. A reader need not
 * use one: the core makes the same forms as it restores a snapshot, only later.
 */
export interface SnapshotReviver {
  /**
   * The record to keep for the JSON text of a record of `collection`, when the reviver knows it
   * from the text alone, faster than the text is parsed (an audit entry `created`, written as the
   * core writes it, of a receipt met before); `undefined` otherwise, and the reader then parses
   * the text and hands the record to {@link SnapshotReviver.record}.
   */
  text(collection: string, text: string): unknown;
  /** The record to keep in place of a record of `collection` just parsed. */
  record(collection: string, record: unknown): unknown;
}

/**
 * Makes a {@link SnapshotReviver} for one snapshot.
 *
 * @example
 * ```ts
 * import { createSandboxCore, createSnapshotReviver, type SandboxSnapshot } from '@boundbook/sandbox-core';
 *
 * const saved = JSON.stringify(createSandboxCore().snapshot());
 * // A reader that parses a record at a time passes each through the reviver as it goes.
 * const reviver = createSnapshotReviver();
 * const snapshot = JSON.parse(saved) as SandboxSnapshot;
 * for (const [collection, records] of Object.entries(snapshot)) {
 *   if (!Array.isArray(records)) continue;
 *   snapshot[collection] = records.map((record: unknown) => reviver.record(collection, record));
 * }
 * const core = createSandboxCore({ snapshot });
 * ```
 */
export function createSnapshotReviver(): SnapshotReviver {
  const live = new ReceiptsById();
  const deleted = new ReceiptsById();
  const strings = new SharedStrings();
  const texts = new CreationTexts();
  const receiptOf = (id: number): Receipt | undefined => live.get(id) ?? deleted.get(id);
  // The token of the last entry `created`: entries in a row are mostly made with one token.
  let lastToken: number | null = null;
  return {
    text(collection, text) {
      if (collection !== 'audit') return undefined;
      const entry = creationFromText(text, receiptOf, lastToken);
      return entry !== undefined && texts.text(entry) === text ? entry : undefined;
    },
    record(collection, record) {
      if (typeof record !== 'object' || record === null) return record;
      if (collection === 'receipts' || collection === 'deleted_receipts') {
        const receipt = record as Receipt;
        strings.share(receipt);
        (collection === 'receipts' ? live : deleted).add(receipt);
        return receipt;
      }
      if (collection !== 'audit' || record instanceof CreationEntry) return record;
      const entry = record as AuditRecord;
      const created = creationEntry(entry, receiptOf(entry.receipt_id));
      if (created !== undefined) lastToken = created.token_id;
      return created ?? entry;
    },
  };
}

/** A whole number as `JSON.stringify` writes one, small enough to be written back the same. */
const WHOLE_NUMBER = /^(?:0|[1-9]\d{0,14})$/;

/**
 * The {@link CreationEntry} an audit entry's text would be, if it were exactly an entry `created`
 * made with `token` at its receipt's creation: its id and receipt id read from the text (first
 * and last), its receipt among those met. The caller compares the text with the entry's own.
 */
function creationFromText(
  text: string,
  receiptOf: (id: number) => Receipt | undefined,
  token: number | null,
): CreationEntry | undefined {
  if (!text.startsWith('{"id":') || !text.endsWith('}')) return undefined;
  const id = text.slice(6, text.indexOf(',', 6));
  const receiptId = text.slice(text.lastIndexOf(':') + 1, -1);
  if (!WHOLE_NUMBER.test(id) || !WHOLE_NUMBER.test(receiptId)) return undefined;
  const receipt = receiptOf(Number(receiptId));
  return receipt === undefined ? undefined : new CreationEntry(Number(id), token, receipt.created_at, receipt);
}

/**
 * The receipts met so far by id. Snapshots list them by ascending id, so they are kept in a
 * list searched by halves; a Map is made only for a snapshot listing them otherwise.
 */
class ReceiptsById {
  readonly #list: Receipt[] = [];
  #byId: Map<number, Receipt> | undefined;

  add(receipt: Receipt): void {
    if (typeof receipt.id !== 'number') return;
    if (this.#byId !== undefined) {
      this.#byId.set(receipt.id, receipt);
      return;
    }
    const last = this.#list[this.#list.length - 1];
    if (last === undefined || last.id < receipt.id) {
      this.#list.push(receipt);
      return;
    }
    this.#byId = new Map(this.#list.map((known) => [known.id, known]));
    this.#byId.set(receipt.id, receipt);
    this.#list.length = 0;
  }

  get(id: number): Receipt | undefined {
    if (this.#byId !== undefined) return this.#byId.get(id);
    let low = 0;
    let high = this.#list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#list[middle]!.id < id) low = middle + 1;
      else high = middle;
    }
    const found = this.#list[low];
    return found?.id === id ? found : undefined;
  }
}

/** Receipt fields whose values repeat across the receipts of a book. */
const SHARED_FIELDS = [
  'book',
  'manufacturer',
  'importer',
  'country_of_origin',
  'model',
  'type',
  'caliber',
  'received_from',
  'ffl_license',
  'address',
  'city',
  'created_at',
] as const satisfies readonly (keyof Receipt)[];

/** Distinct strings kept at most: past them, new values are left as they are. */
const MAX_SHARED_STRINGS = 1 << 16;

/**
 * One copy of each string value of the {@link SHARED_FIELDS} of the receipts of a snapshot.
 * Receipts come in runs (a shipment of one model from one supplier), so each value is first
 * compared with the previous receipt's, which spares most lookups.
 */
class SharedStrings {
  readonly #strings = new Map<string, string>();
  #previous: Record<string, unknown> | undefined;

  /** Puts the kept copy of each shared field's value in place, in a receipt not yet frozen. */
  share(receipt: Receipt): void {
    if (Object.isFrozen(receipt)) return;
    const fields = receipt as unknown as Record<string, unknown>;
    const previous = this.#previous;
    for (const field of SHARED_FIELDS) {
      const value = fields[field];
      if (typeof value !== 'string') continue;
      const before = previous?.[field];
      fields[field] = value === before ? before : this.#kept(value);
    }
    this.#previous = fields;
    if (fields['updated_at'] === fields['created_at']) fields['updated_at'] = fields['created_at'];
    const documents = fields['documents'];
    if (Array.isArray(documents) && documents.length === 0) fields['documents'] = NO_DOCUMENTS;
  }

  #kept(value: string): string {
    const kept = this.#strings.get(value);
    if (kept !== undefined) return kept;
    if (this.#strings.size < MAX_SHARED_STRINGS) this.#strings.set(value, value);
    return value;
  }
}

/** The documents of every receipt without any: one frozen list. */
const NO_DOCUMENTS: readonly never[] = Object.freeze([]);
