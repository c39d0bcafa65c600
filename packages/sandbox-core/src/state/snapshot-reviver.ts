import type { Receipt } from '@fflkit/types';
import { CreationEntry, creationEntry, CreationTexts } from './audit-trails';
import type { AuditRecord } from './records';

// What the records of a snapshot become as a reader parses them, before the core restores them.
//
// Performance: a reader that passes each record through a reviver as it parses it never holds a
// large snapshot as plain objects: audit entries `created` become `CreationEntry`s (about 60
// bytes instead of 750) and the strings that repeat across receipts (makers, models, suppliers,
// moments) are held once, one record at a time. Most entries `created` are not even parsed: the
// text their receipt implies is compared with theirs (`CreationTexts`), in a sixth of the time
// of parsing it. A data file of a million receipts then opens within the million
// benchmark's targets (at most 3 s, peak RSS at most 1 GB). It relies on a snapshot listing
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
 * import { createSandboxCore, type SandboxSnapshot } from '@fflkit/sandbox-core';
 * import { createSnapshotReviver } from '@fflkit/sandbox-core/persistence';
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
      return entry !== undefined && texts.matches(entry, text) ? entry : undefined;
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
  if (!text.startsWith('{"id":') || text.charCodeAt(text.length - 1) !== CLOSING_BRACE) return undefined;
  const id = wholeNumber(text, 6, text.indexOf(',', 6));
  const receiptId = wholeNumber(text, text.lastIndexOf(':') + 1, text.length - 1);
  const receipt = id === undefined || receiptId === undefined ? undefined : receiptOf(receiptId);
  return receipt === undefined ? undefined : new CreationEntry(id!, token, receipt.created_at, receipt);
}

const CLOSING_BRACE = 0x7d;
const DIGIT_0 = 0x30;

/**
 * The whole number written from `start` to `end` of `text` as `JSON.stringify` writes one (no
 * sign, no leading zero, no fraction), of at most 15 digits so that it is written back the same;
 * `undefined` for anything else.
 */
function wholeNumber(text: string, start: number, end: number): number | undefined {
  if (end <= start || end - start > 15 || (end - start > 1 && text.charCodeAt(start) === DIGIT_0)) return undefined;
  let value = 0;
  for (let at = start; at < end; at += 1) {
    const digit = text.charCodeAt(at) - DIGIT_0;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * The receipts met so far by id. Snapshots list them by ascending id, so they are kept in a
 * list searched by halves; a Map is made only for a snapshot listing them otherwise.
 */
class ReceiptsById {
  readonly #list: Receipt[] = [];
  #byId: Map<number, Receipt> | undefined;
  /** Where the last receipt asked for was found in the list. */
  #found = -1;

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
    // Entries name their receipts mostly in the receipts' order: the one after the last found first.
    const following = this.#list[this.#found + 1];
    if (following?.id === id) return this.#list[(this.#found += 1)];
    let low = 0;
    let high = this.#list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#list[middle]!.id < id) low = middle + 1;
      else high = middle;
    }
    const found = this.#list[low];
    if (found?.id !== id) return undefined;
    this.#found = low;
    return found;
  }
}

/** A receipt whose fields the reviver may still set: one just parsed, not yet frozen. */
type ParsedReceipt = { -readonly [Field in keyof Receipt]: Receipt[Field] };

/** Distinct strings kept at most: past them, new values are left as they are. */
const MAX_SHARED_STRINGS = 1 << 16;

/**
 * One copy of each string value of the receipt fields that repeat across a book (its book,
 * maker, importer, country, model, type, caliber, supplier, license, address, city, creation
 * moment). Receipts come in runs (a shipment of one model from one supplier), so each value is
 * first compared with the previous receipt's, which spares most lookups; the fields are named
 * one by one, which the engine reads faster than fields looked up by name in a loop.
 */
class SharedStrings {
  readonly #strings = new Map<string, string>();
  #previous: ParsedReceipt | undefined;

  /** Puts the kept copy of each shared field's value in place, in a receipt not yet frozen. */
  share(receipt: Receipt): void {
    if (Object.isFrozen(receipt)) return;
    const r = receipt as ParsedReceipt;
    const p = this.#previous;
    r.book = this.#shared(r.book, p?.book);
    r.manufacturer = this.#shared(r.manufacturer, p?.manufacturer);
    r.importer = this.#shared(r.importer, p?.importer);
    r.country_of_origin = this.#shared(r.country_of_origin, p?.country_of_origin);
    r.model = this.#shared(r.model, p?.model);
    r.type = this.#shared(r.type, p?.type);
    r.caliber = this.#shared(r.caliber, p?.caliber);
    r.received_from = this.#shared(r.received_from, p?.received_from);
    r.ffl_license = this.#shared(r.ffl_license, p?.ffl_license);
    r.address = this.#shared(r.address, p?.address);
    r.city = this.#shared(r.city, p?.city);
    r.created_at = this.#shared(r.created_at, p?.created_at);
    if (r.updated_at === r.created_at) r.updated_at = r.created_at;
    if (Array.isArray(r.documents) && r.documents.length === 0) r.documents = NO_DOCUMENTS;
    this.#previous = r;
  }

  #shared<T>(value: T, before: unknown): T {
    if (typeof value !== 'string') return value;
    if (value === before) return before as T;
    const kept = this.#strings.get(value);
    if (kept !== undefined) return kept as T;
    if (this.#strings.size < MAX_SHARED_STRINGS) this.#strings.set(value, value);
    return value;
  }
}

/** The documents of every receipt without any: one frozen list. */
const NO_DOCUMENTS: never[] = Object.freeze([]) as never[];
