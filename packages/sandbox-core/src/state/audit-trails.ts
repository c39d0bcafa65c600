import type { Receipt } from '@fflkit/types';
import { type AuditRecord, deepFreeze, RECEIPT_FIELDS } from './records';

// The audit trails of an account's receipts: every entry, by receipt, oldest first.
//
// Performance: every receipt has an entry `created` that repeats the fields it was made with.
// Held as the object JSON gives, that entry costs about 750 bytes, more than the receipt itself.
// An entry that says exactly what the version of the receipt it made says (its changes are the
// receipt's request fields that are not null, each from null to the receipt's value, in the
// request's order) is held instead as a `CreationEntry`, a reference to that version of the
// receipt (about 60 bytes), and gives its record back when asked. Receipt versions are immutable,
// so the record it gives back never changes. A trail of one entry is held without a list. The
// peak RSS targets of the million benchmark (at most 1 GB for a million receipts) and of the
// writes benchmark (under 400 MB at 100,000) rest on it.

/** The members of an audit record, in the order the core writes them (see appendAudit). */
const RECORD_MEMBERS = ['id', 'action', 'changes', 'token_id', 'occurred_at', 'receipt_id'] as const;

/**
 * An audit entry `created` held as the version of the receipt it made. It reads as its
 * {@link AuditRecord} (its `changes` are made when read) and serialises as that record.
 */
export class CreationEntry implements AuditRecord {
  readonly id: number;
  readonly token_id: number | null;
  readonly occurred_at: string;
  /** The version of the receipt the entry made. */
  readonly receipt: Receipt;

  constructor(id: number, tokenId: number | null, occurredAt: string, receipt: Receipt) {
    this.id = id;
    this.token_id = tokenId;
    this.occurred_at = occurredAt;
    this.receipt = receipt;
    Object.freeze(this);
  }

  get action(): 'created' {
    return 'created';
  }

  get receipt_id(): number {
    return this.receipt.id;
  }

  get changes(): AuditRecord['changes'] {
    const changes: Record<string, { from: null; to: unknown }> = {};
    for (const field of RECEIPT_FIELDS) {
      const value = this.receipt[field];
      if (value !== null) changes[field] = { from: null, to: value };
    }
    return changes;
  }

  /** The plain record, frozen, members in the order the core writes them. */
  record(): AuditRecord {
    return deepFreeze({
      id: this.id,
      action: this.action,
      changes: this.changes,
      token_id: this.token_id,
      occurred_at: this.occurred_at,
      receipt_id: this.receipt_id,
    });
  }

  toJSON(): AuditRecord {
    return this.record();
  }
}

/**
 * Writes and recognises the JSON text of {@link CreationEntry}s, exactly as `JSON.stringify`
 * writes their records, in a fraction of its time.
 *
 * Performance: entries come in runs whose receipts differ only in their serial numbers (a
 * shipment of one model from one supplier), so the text of the changes is kept for the last
 * receipt, in two parts around its serial number, and used again while the next receipt's other
 * request fields hold the same values. Recognising a text then compares a few parts of it
 * (`substring` and `===`, which the engine compares as bytes, unlike `startsWith`) instead of
 * parsing it. Reading and writing a million entries (the million benchmark's open and stop)
 * rest on it.
 */
export class CreationTexts {
  #template: ChangesTemplate | undefined;

  /** The JSON text of `entry`'s record. */
  text(entry: CreationEntry): string {
    const { receipt } = entry;
    const template = this.#templateOf(receipt);
    const serial = template.serialAt === -1 ? '' : JSON.stringify(receipt.serial_number);
    return `{"id":${entry.id}${template.head}${serial}${template.tail}${tokenText(entry.token_id)},"occurred_at":${JSON.stringify(entry.occurred_at)},"receipt_id":${receipt.id}}`;
  }

  /** Whether `text` is exactly the JSON text of `entry`'s record. */
  matches(entry: CreationEntry, text: string): boolean {
    const { receipt } = entry;
    const template = this.#templateOf(receipt);
    // Part by part, each compared where the one before ended, without joining them.
    let at = matchAt(text, 0, `{"id":${entry.id}`);
    at = matchAt(text, at, template.head);
    if (template.serialAt !== -1) at = matchAt(text, at, JSON.stringify(receipt.serial_number));
    at = matchAt(text, at, template.tail);
    at = matchAt(text, at, tokenText(entry.token_id));
    at = matchAt(text, at, ',"occurred_at":');
    at = matchAt(text, at, JSON.stringify(entry.occurred_at));
    at = matchAt(text, at, `,"receipt_id":${receipt.id}}`);
    return at === text.length;
  }

  /** The template of the last receipt when `receipt`'s request fields but its serial match it, else a new one. */
  #templateOf(receipt: Receipt): ChangesTemplate {
    const template = this.#template;
    if (template !== undefined && sameButSerial(template.receipt, receipt)) return template;
    this.#template = changesTemplate(receipt);
    return this.#template;
  }
}

/**
 * The text of an entry's changes for a receipt, from the action to the token's name: `head` up
 * to the serial number's value, `tail` after it (`serialAt` is the serial number's place among
 * the changes, -1 without one, when `head` holds all of them).
 */
interface ChangesTemplate {
  readonly receipt: Receipt;
  readonly head: string;
  readonly tail: string;
  readonly serialAt: number;
}

function changesTemplate(receipt: Receipt): ChangesTemplate {
  let head = ',"action":"created","changes":{';
  let tail = '';
  let serialAt = -1;
  let first = true;
  for (let at = 0; at < RECEIPT_FIELDS.length; at += 1) {
    const field = RECEIPT_FIELDS[at]!;
    const value = receipt[field];
    if (value === null) continue;
    const opening = first ? FIRST_CHANGE_HEADS[at]! : CHANGE_HEADS[at]!;
    first = false;
    if (field === 'serial_number') {
      head += opening;
      tail = '}';
      serialAt = at;
    } else if (serialAt === -1) {
      head += `${opening}${JSON.stringify(value)}}`;
    } else {
      tail += `${opening}${JSON.stringify(value)}}`;
    }
  }
  return serialAt === -1
    ? { receipt, head: `${head}},"token_id":`, tail: '', serialAt }
    : { receipt, head, tail: `${tail}},"token_id":`, serialAt };
}

/**
 * Whether two receipts hold the same values in every request field but the serial number. The
 * fields are named one by one, which the engine reads faster than fields looked up by name in a
 * loop (a million receipts' open); `RECEIPT_FIELDS` lists the same fields.
 */
function sameButSerial(a: Receipt, b: Receipt): boolean {
  return (
    a.book === b.book &&
    a.manufacturer === b.manufacturer &&
    a.importer === b.importer &&
    a.country_of_origin === b.country_of_origin &&
    a.model === b.model &&
    a.type === b.type &&
    a.caliber === b.caliber &&
    a.receipt_date === b.receipt_date &&
    a.purchase_amount === b.purchase_amount &&
    a.received_from === b.received_from &&
    a.ffl_license === b.ffl_license &&
    a.address === b.address &&
    a.city === b.city &&
    a.state === b.state &&
    a.zip === b.zip &&
    (a.serial_number === null) === (b.serial_number === null)
  );
}

function tokenText(tokenId: number | null): string {
  return tokenId === null ? 'null' : String(tokenId);
}

/** Where `part` ends when `text` holds it at `at`; -1 when it does not (or `at` is -1 already). */
function matchAt(text: string, at: number, part: string): number {
  return at !== -1 && text.substring(at, at + part.length) === part ? at + part.length : -1;
}

/** What opens the change of each of the {@link RECEIPT_FIELDS}: first, or after another. */
const FIRST_CHANGE_HEADS = RECEIPT_FIELDS.map((field) => `${JSON.stringify(field)}:{"from":null,"to":`);
const CHANGE_HEADS = FIRST_CHANGE_HEADS.map((head) => `,${head}`);

/** Where an account's receipts are, live and soft-deleted, by id. */
interface ReceiptsOfAccount {
  readonly receipts: ReadonlyMap<number, Receipt>;
  readonly deletedReceipts: ReadonlyMap<number, Receipt>;
}

/** An entry as a trail holds it. */
type HeldEntry = AuditRecord | CreationEntry;

/**
 * The audit entries of an account's receipts by receipt id, each trail oldest first. Only the
 * store changes it ({@link AuditTrails.apply}); entries are immutable.
 */
export class AuditTrails {
  readonly #trails = new Map<number, HeldEntry | HeldEntry[]>();

  /** The records of a receipt's trail, oldest first; none for a receipt without one. */
  records(receiptId: number): AuditRecord[] {
    return this.#entries(receiptId).map(plainRecord);
  }

  /** The entry of `id` in a receipt's trail, as held. */
  find(receiptId: number, id: number): AuditRecord | undefined {
    const trail = this.#trails.get(receiptId);
    if (!Array.isArray(trail)) return trail?.id === id ? trail : undefined;
    return trail.find((entry) => entry.id === id);
  }

  /**
   * Every entry as held, trail by trail: a {@link CreationEntry} serialises as its record with
   * `JSON.stringify`, but only {@link AuditTrails.records} gives plain records.
   */
  *held(): Generator<AuditRecord, void, undefined> {
    for (const trail of this.#trails.values()) {
      if (Array.isArray(trail)) yield* trail;
      else yield trail;
    }
  }

  /**
   * Puts `next` in place of `previous` (either may be absent; entries are matched by id) in
   * the trail of their receipt. A new entry `created` that says what its receipt, as `receipts`
   * holds it now, says is held as a {@link CreationEntry}.
   */
  apply(previous: AuditRecord | undefined, next: AuditRecord | undefined, receipts: ReceiptsOfAccount): void {
    const receiptId = (next ?? previous)!.receipt_id;
    const held =
      next === undefined || next instanceof CreationEntry || next.action !== 'created'
        ? next
        : (creationEntry(next, receipts.receipts.get(receiptId) ?? receipts.deletedReceipts.get(receiptId)) ?? next);
    const current = this.#trails.get(receiptId);
    // The common case, one entry made for a new receipt, touches no list.
    if (current === undefined) {
      if (held !== undefined) this.#trails.set(receiptId, held);
      return;
    }
    const trail = Array.isArray(current) ? current : [current];
    // Entries are appended and taken back in order, so the common case is the end of the trail.
    let at = previous === undefined ? -1 : trail.length - 1;
    while (at >= 0 && trail[at]!.id !== previous!.id) at -= 1;
    if (held === undefined) {
      if (at !== -1) trail.splice(at, 1);
    } else if (at === -1) {
      trail.push(held);
    } else {
      trail[at] = held;
    }
    if (trail.length === 0) this.#trails.delete(receiptId);
    else this.#trails.set(receiptId, trail.length === 1 ? trail[0]! : trail);
  }

  #entries(receiptId: number): readonly HeldEntry[] {
    const trail = this.#trails.get(receiptId);
    return trail === undefined ? [] : Array.isArray(trail) ? trail : [trail];
  }
}

/** An entry's plain record: a {@link CreationEntry}'s, or the entry itself. */
export function plainRecord(entry: AuditRecord): AuditRecord {
  return entry instanceof CreationEntry ? entry.record() : entry;
}

/**
 * `record` as a {@link CreationEntry} when it is exactly the entry `created` of `receipt`: its
 * members those the core writes, in order; its changes each request field of the receipt that is
 * not null, in order, each exactly `{"from": null, "to": value}`. Else `undefined`: the record is
 * held as it is.
 */
export function creationEntry(record: AuditRecord, receipt: Receipt | undefined): CreationEntry | undefined {
  if (record.action !== 'created' || receipt === undefined || record.receipt_id !== receipt.id) return undefined;
  const { id, token_id: tokenId, occurred_at: occurredAt, changes } = record;
  if (typeof id !== 'number' || (tokenId !== null && typeof tokenId !== 'number') || typeof occurredAt !== 'string')
    return undefined;
  if (!hasMembers(record, RECORD_MEMBERS) || typeof changes !== 'object' || changes === null) return undefined;
  let field = 0;
  // for...in rather than Object.keys: it allocates nothing, and these records are plain objects
  // (from JSON or the core), whose prototype has no enumerable member.
  for (const name in changes) {
    while (field < RECEIPT_FIELDS.length && receipt[RECEIPT_FIELDS[field]!] === null) field += 1;
    const expected = RECEIPT_FIELDS[field];
    if (name !== expected) return undefined;
    const change = changes[name] as { from?: unknown; to?: unknown } | null;
    if (typeof change !== 'object' || change === null || !hasMembers(change, CHANGE_MEMBERS)) return undefined;
    if (change.from !== null || change.to !== receipt[expected]) return undefined;
    field += 1;
  }
  while (field < RECEIPT_FIELDS.length && receipt[RECEIPT_FIELDS[field]!] === null) field += 1;
  if (field !== RECEIPT_FIELDS.length) return undefined;
  // The entry and its receipt are made in one transaction: they mostly share the moment's text.
  return new CreationEntry(id, tokenId, occurredAt === receipt.created_at ? receipt.created_at : occurredAt, receipt);
}

const CHANGE_MEMBERS = ['from', 'to'] as const;

/** Whether an object's enumerable members are exactly `names`, in that order. */
function hasMembers(value: object, names: readonly string[]): boolean {
  let at = 0;
  for (const name in value) {
    if (name !== names[at]) return false;
    at += 1;
  }
  return at === names.length;
}
