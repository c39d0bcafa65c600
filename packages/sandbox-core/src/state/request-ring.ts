import { packageMessage } from '../support/errors';
import type { RequestLogRecord } from './records';

// Performance: an account's request log is a ring of columns, not an array of entry objects. The
// log keeps up to a thousand entries, so each one outlives the young generation: an object per
// request would be copied by scavenges and then grow the old generation on every read (the reads
// benchmark). The numbers of an entry go into a typed array and its texts and objects into an
// array of references to what the request already held (a repeated path or query is one string,
// a repeated set of headers one redacted copy), so that recording a request allocates nothing
// that lives on; the entry objects are made only when the log is read.

/** An entry of the log as recorded, before it has an id. */
export type RequestLogInput = Omit<RequestLogRecord, 'id'>;

/** The limits of an account's request log: entries and bytes. */
export interface RequestLogLimits {
  readonly entries: number;
  readonly bytes: number;
}

// The slots of one entry in each column.
const ID = 0;
const STATUS = 1;
const DURATION = 2;
const RECEIVED = 3;
const SIZE = 4;
const NUMBERS = 5;
const METHOD = 0;
const PATH = 1;
const QUERY = 2;
const OPERATION = 3;
const HEADERS = 4;
const BODY = 5;
const RESPONSE_BODY = 6;
const FAULT = 7;
const REFERENCES = 8;

/** The first room a log makes, in entries; it doubles as it fills, up to the limit of entries. */
const FIRST_ROOM = 16;

/**
 * An account's recent service API requests, oldest first, within limits of entries and bytes:
 * {@link push} drops the oldest entries past them (the newest always stays) and counts what it
 * dropped; {@link at} makes the record of an entry when it is read.
 */
export class RequestRing {
  #bytes = 0;
  #dropped = 0;
  #lastDroppedMs = Number.NEGATIVE_INFINITY;
  #length = 0;
  /** The slot of the oldest entry. */
  #head = 0;
  /** Entries the columns have room for; the log grows to the limit of entries, never shrinks. */
  #room = 0;
  #numbers = new Float64Array(0);
  #references: unknown[] = [];

  /** The sum of the `size` of the entries held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Entries dropped since the account was made. */
  get dropped(): number {
    return this.#dropped;
  }

  /** When the newest dropped entry arrived, on the account's clock; `-Infinity` before any. */
  get lastDroppedMs(): number {
    return this.#lastDroppedMs;
  }

  /** The entries held. */
  get length(): number {
    return this.#length;
  }

  /**
   * Records an entry as the newest, then drops the oldest while the log holds more than
   * `limits` (the newest entry always stays).
   */
  push(id: number, entry: RequestLogInput, limits: RequestLogLimits): void {
    const entries = Math.max(1, limits.entries);
    while (this.#length >= entries) this.#dropOldest();
    if (this.#length === this.#room) this.#grow(Math.min(entries, Math.max(FIRST_ROOM, this.#room * 2)));
    const slot = (this.#head + this.#length) % this.#room;
    const numbers = this.#numbers;
    const at = slot * NUMBERS;
    numbers[at + ID] = id;
    numbers[at + STATUS] = entry.status;
    numbers[at + DURATION] = entry.duration_ms;
    numbers[at + RECEIVED] = entry.received_ms;
    numbers[at + SIZE] = entry.size;
    const references = this.#references;
    const from = slot * REFERENCES;
    references[from + METHOD] = entry.method;
    references[from + PATH] = entry.path;
    references[from + QUERY] = entry.query;
    references[from + OPERATION] = entry.operation;
    references[from + HEADERS] = entry.headers;
    references[from + BODY] = entry.body;
    references[from + RESPONSE_BODY] = entry.response_body;
    references[from + FAULT] = entry.fault;
    this.#length += 1;
    this.#bytes += entry.size;
    while (this.#length > 1 && this.#bytes > limits.bytes) this.#dropOldest();
  }

  /** The record of the entry at `index`, 0 the oldest; a new object at each call. */
  at(index: number): RequestLogRecord {
    if (!Number.isInteger(index) || index < 0 || index >= this.#length) {
      throw new RangeError(packageMessage(`the request log holds ${this.#length} entries; there is none at ${index}`));
    }
    const slot = (this.#head + index) % this.#room;
    const numbers = this.#numbers;
    const at = slot * NUMBERS;
    const references = this.#references;
    const from = slot * REFERENCES;
    return {
      id: numbers[at + ID]!,
      method: references[from + METHOD] as RequestLogRecord['method'],
      path: references[from + PATH] as RequestLogRecord['path'],
      query: references[from + QUERY] as RequestLogRecord['query'],
      operation: references[from + OPERATION] as RequestLogRecord['operation'],
      status: numbers[at + STATUS]!,
      duration_ms: numbers[at + DURATION]!,
      received_ms: numbers[at + RECEIVED]!,
      headers: references[from + HEADERS] as RequestLogRecord['headers'],
      body: references[from + BODY] as RequestLogRecord['body'],
      response_body: references[from + RESPONSE_BODY] as RequestLogRecord['response_body'],
      fault: references[from + FAULT] as RequestLogRecord['fault'],
      size: numbers[at + SIZE]!,
    };
  }

  #dropOldest(): void {
    const at = this.#head * NUMBERS;
    this.#bytes -= this.#numbers[at + SIZE]!;
    this.#dropped += 1;
    this.#lastDroppedMs = Math.max(this.#lastDroppedMs, this.#numbers[at + RECEIVED]!);
    // The slot lets go of what it held: a dropped body must not stay in memory until overwritten.
    this.#references.fill(null, this.#head * REFERENCES, (this.#head + 1) * REFERENCES);
    this.#head = (this.#head + 1) % this.#room;
    this.#length -= 1;
  }

  /** Moves the entries to columns with room for `room`, the oldest in the first slot. */
  #grow(room: number): void {
    const numbers = new Float64Array(room * NUMBERS);
    const references: unknown[] = new Array(room * REFERENCES).fill(null);
    for (let index = 0; index < this.#length; index += 1) {
      const slot = (this.#head + index) % this.#room;
      numbers.set(this.#numbers.subarray(slot * NUMBERS, (slot + 1) * NUMBERS), index * NUMBERS);
      for (let field = 0; field < REFERENCES; field += 1) {
        references[index * REFERENCES + field] = this.#references[slot * REFERENCES + field];
      }
    }
    this.#numbers = numbers;
    this.#references = references;
    this.#room = room;
    this.#head = 0;
  }
}
