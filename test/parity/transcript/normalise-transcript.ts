import { Placeholders } from './placeholders';
import type { TranscriptEntry } from './transcript';

/** Where a face and its webhook receiver listen, written `<origin>` and `<receiver>`. */
export interface TranscriptOrigins {
  readonly origin: string;
  readonly receiver: string;
}

// What the `id` of an object is, told by a field only that kind of object has (the first found:
// a fault rule has an `action` and a `method` too).
const ID_KINDS: ReadonlyArray<readonly [field: string, kind: string]> = [
  ['fired', 'fault'],
  ['serial_number', 'receipt'],
  ['record_count', 'book'],
  ['events', 'webhook'],
  ['mime_type', 'document'],
  ['account_type', 'account'],
  ['permissions', 'token'],
  ['action', 'audit'],
  ['method', 'request'],
];
// `user_id` of a receipt is its account's id.
const REFERENCE_KINDS: Readonly<Record<string, string>> = { user: 'account' };
// Values that measure the moment or the machine, not the behaviour.
const VOLATILE: Readonly<Record<string, string>> = {
  duration_ms: '<ms>',
  'retry-after': '<seconds>',
  'x-ratelimit-reset': '<epoch>',
};
const PATH_KINDS: Readonly<Record<string, string>> = {
  receipts: 'receipt',
  webhooks: 'webhook',
  tokens: 'token',
  documents: 'document',
  faults: 'fault',
};

// Also percent-encoded, as in the `since` of a pagination link (`2025-03-14T15%3A00%3A00Z`).
const TIMESTAMP =
  /\d{4}-\d{2}-\d{2}T\d{2}(?::|%3A)\d{2}(?::|%3A)\d{2}(?:\.\d+)?(?:Z|(?:[+-]|%2B)\d{2}(?::|%3A)\d{2})/gi;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const API_KEY = /sbx_[A-Za-z0-9]+/g;
const SECRET = /whsec_[A-Za-z0-9_-]+/g;
const SIGNATURE = /sha256=[0-9a-f]{64}/g;
const PATH_ID = /\/(receipts|webhooks|tokens|documents|faults)\/(\d+)/g;

/**
 * A transcript with what legitimately differs between faces replaced: origins, timestamps and
 * measured durations by fixed stand-ins; ids, UUIDs, API keys and secrets by numbered ones per
 * kind (see {@link Placeholders}), so that equal references stay visible. Dates (`YYYY-MM-DD`),
 * record numbers, counts and every message are kept as they are.
 *
 * @example
 * ```ts
 * normaliseTranscript(transcript.entries, { origin: face.origin, receiver: receiver.origin });
 * // [{ exchange: 'GET /rest/v1/receipts/<receipt:1>', status: 200, body: { data: { id: '<receipt:1>', ... } } }]
 * ```
 */
export function normaliseTranscript(entries: readonly TranscriptEntry[], origins: TranscriptOrigins): unknown[] {
  const placeholders = new Placeholders();

  const text = (value: string): string =>
    value
      .replaceAll(origins.origin, '<origin>')
      .replaceAll(origins.receiver, '<receiver>')
      .replace(TIMESTAMP, '<time>')
      .replace(UUID, (uuid) => placeholders.for('uuid', uuid.toLowerCase()))
      .replace(API_KEY, (key) => placeholders.for('api-key', key))
      .replace(SECRET, (secret) => placeholders.for('secret', secret))
      .replace(SIGNATURE, '<signature>')
      .replace(
        PATH_ID,
        (_, segment: string, id: string) => `/${segment}/${placeholders.for(PATH_KINDS[segment] ?? segment, id)}`,
      );

  const walk = (value: unknown, key: string | undefined, parent: object | undefined): unknown => {
    if (key !== undefined && key in VOLATILE && value !== null) return VOLATILE[key];
    if (typeof value === 'string') return text(value);
    if (typeof value === 'number' && key !== undefined && parent !== undefined) {
      const kind = idKind(key, parent);
      return kind === undefined ? value : placeholders.for(kind, value);
    }
    if (Array.isArray(value)) return value.map((item) => walk(item, undefined, undefined));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, walk(item, name, value)]));
    }
    return value;
  };

  return entries.map((entry) => walk(entry, undefined, undefined));
}

/** The kind of id a number under `key` of `parent` is, or `undefined` when it is no id. */
function idKind(key: string, parent: object): string | undefined {
  if (key === 'id') return ID_KINDS.find(([field]) => field in parent)?.[1] ?? 'id';
  // The fault rule that acted on a logged request.
  if (key === 'rule') return 'fault';
  if (!key.endsWith('_id')) return undefined;
  const kind = key.slice(0, -'_id'.length);
  return REFERENCE_KINDS[kind] ?? kind;
}
