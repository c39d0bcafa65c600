import type { SandboxRequestLogEntry, SandboxRequestLogFault } from '@fflkit/types';
import type { RequestLogRecord } from '../state/records';
import type { AccountState, CoreStore } from '../state/store';
import type { SandboxRequest } from '../support/request';
import { formatInstant } from '../support/time';

// The account's recent service API requests, for the control API: diagnostics and assertions,
// not data. The log does not move the state's version and is not part of a snapshot, so a
// request answered with an error still changes no persistent state. Credentials never enter it.

/** Requests kept per account; older ones are dropped first. */
export const REQUEST_LOG_ENTRIES = 1000;
/** Bytes kept per account (paths, queries, header values and bodies, in UTF-8); older entries are dropped first. */
export const REQUEST_LOG_BYTES = 1_048_576;

/** What the log replaces a credential with. */
const REDACTED = '[redacted]';
const REDACTED_BEARER = `Bearer ${REDACTED}`;

// Headers that carry credentials besides the bearer token; an integrator's proxy or client may
// add them, and the log must never show them back.
const SECRET_HEADERS = new Set(['cookie', 'proxy-authorization', 'x-api-key']);
// Query parameters and body fields that carry credentials by their name.
const SECRET_NAMES = /^(?:access_token|token|api_key|apikey|key|secret|password)$/i;
// A value that holds a token of the sandbox or a webhook secret, whatever field it is in.
const SECRET_VALUE = /sbx_|whsec_/i;
// The user and password of a URL: `https://user:pass@host` keeps its host only.
const URL_CREDENTIALS = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i;

/** What is known of a request once it is answered. */
export interface AnsweredRequest {
  request: SandboxRequest;
  status: number;
  /** The operationId of the service API it addressed; `undefined` for an unknown route. */
  operationId: string | undefined;
  /** What a fault rule did to it. */
  fault: SandboxRequestLogFault | undefined;
  /** The account's clock when the request arrived. */
  receivedMs: number;
  durationMs: number;
  /** The body of the answer: kept for an error answer (4xx, 5xx) only. */
  responseBody?: unknown;
}

/**
 * Records a service API request in the account's log, credentials redacted, then drops the
 * oldest entries until the log holds at most {@link REQUEST_LOG_ENTRIES} and
 * {@link REQUEST_LOG_BYTES} (the newest entry always stays).
 */
export function logRequest(store: CoreStore, account: AccountState, answered: AnsweredRequest): void {
  const { request } = answered;
  const headers = keptHeaders(account, request.headers);
  const query = redactQuery(request.query);
  const path = redactPath(request.path);
  // The body of a write; the API's reads and deletes take none.
  const method = request.method.toUpperCase();
  const kept = method === 'POST' || method === 'PUT' ? readBody(request.body) : undefined;
  const answer = answered.status >= 400 ? keptAnswer(answered.responseBody) : undefined;
  const size =
    byteLength(path) +
    byteLength(query) +
    headers.weight +
    (kept === undefined ? 0 : kept.weight) +
    (answer?.weight ?? 0);
  store.logRequest(
    account,
    {
      method,
      path,
      query,
      operation: answered.operationId ?? null,
      status: answered.status,
      duration_ms: answered.durationMs,
      received_ms: answered.receivedMs,
      headers: headers.copy,
      body: kept === undefined ? null : kept.body,
      response_body: answer === undefined ? null : answer.body,
      fault: answered.fault === undefined ? null : Object.freeze(answered.fault),
      size,
    },
    LIMITS,
  );
}

/** The headers of a request as the log keeps them (redacted and frozen), with their weight. */
interface KeptHeaders {
  /** A copy of the request's headers as sent, to tell whether the next request sent the same. */
  readonly sent: SandboxRequest['headers'];
  readonly copy: Readonly<Record<string, string>>;
  readonly weight: number;
}

/**
 * The kept headers of each account's last logged request: a client sends the same headers again
 * and again, and an entry whose headers equal the last one's shares their redacted copy, so that
 * a repeated request neither redacts nor keeps them anew (the reads benchmark).
 */
const lastHeaders = new WeakMap<AccountState, KeptHeaders>();

function keptHeaders(account: AccountState, sent: SandboxRequest['headers']): KeptHeaders {
  const last = lastHeaders.get(account);
  if (last !== undefined && sameHeaders(last.sent, sent)) return last;
  const copy = redactHeaders(sent);
  // A header weighs its name and value, and a slot of the object holding them: a request of a
  // thousand empty headers is not free.
  let weight = 0;
  for (const name in copy) weight += byteLength(name) + byteLength(copy[name]!) + HEADER_BYTES;
  // A copy: the caller's object may change after the request (a test reusing its headers).
  const kept = { sent: { ...sent }, copy: Object.freeze(copy), weight };
  lastHeaders.set(account, kept);
  return kept;
}

/** Whether two sets of headers have the same names with the same values. */
function sameHeaders(a: SandboxRequest['headers'], b: SandboxRequest['headers']): boolean {
  let names = 0;
  for (const name in b) {
    if (a[name] !== b[name] || !Object.hasOwn(a, name)) return false;
    names += 1;
  }
  for (const name in a) if (Object.hasOwn(a, name)) names -= 1;
  return names === 0;
}

const LIMITS = { entries: REQUEST_LOG_ENTRIES, bytes: REQUEST_LOG_BYTES } as const;

/** The control API's `RequestLogEntry` of a logged request. */
export function renderRequest(record: RequestLogRecord): SandboxRequestLogEntry {
  return {
    id: record.id,
    method: record.method,
    path: record.path,
    query: record.query,
    operation: record.operation,
    status: record.status,
    duration_ms: record.duration_ms,
    at: formatInstant(record.received_ms),
    headers: record.headers,
    body: record.body,
    response_body: record.response_body,
    fault: record.fault,
  };
}

/**
 * The error body of an answer, as the log keeps it, with its weight: the sandbox's own
 * `{message, errors?}`, which says why a request was refused (its fields and messages), a
 * credential in it redacted as in a request body. Successes are not kept: their bodies are the
 * records themselves, which the API answers again.
 */
function keptAnswer(body: unknown): { body: unknown; weight: number } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  return readBody(JSON.stringify(body));
}

/** The query as sent, with the value of every credential parameter, or of any token or secret, redacted. */
function redactQuery(query: string): string {
  if (query === '') return query;
  const redacted = query
    .split('&')
    .map((part) => {
      // Judged as the service reads them, percent-decoded: `%73bx_` is a token all the same.
      const equals = part.indexOf('=');
      if (equals === -1) return SECRET_VALUE.test(decoded(part)) ? REDACTED : part;
      const name = part.slice(0, equals);
      const value = part.slice(equals + 1);
      if (SECRET_VALUE.test(decoded(name))) return `${REDACTED}=${REDACTED}`;
      return SECRET_NAMES.test(decoded(name)) || SECRET_VALUE.test(decoded(value)) ? `${name}=${REDACTED}` : part;
    })
    .join('&');
  // The string sent when nothing was redacted: a repeated query is then one string in the log, not one a request.
  return redacted === query ? query : redacted;
}

/** The path as sent, with a segment that holds a token or a secret redacted. */
function redactPath(path: string): string {
  if (!SECRET_VALUE.test(decoded(path))) return path;
  return path
    .split('/')
    .map((segment) => (SECRET_VALUE.test(decoded(segment)) ? REDACTED : segment))
    .join('/');
}

/** A query component percent-decoded (`+` as a space); as sent when it does not decode. */
function decoded(text: string): string {
  // Most paths and queries hold neither: they decode to themselves.
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

function redactHeaders(headers: SandboxRequest['headers']): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    // A name that holds a token is no name to keep: its entry becomes one redacted header.
    if (SECRET_VALUE.test(lower)) copy[REDACTED] = REDACTED;
    else
      copy[lower] =
        lower === 'authorization'
          ? REDACTED_BEARER
          : SECRET_HEADERS.has(lower) || SECRET_VALUE.test(value)
            ? REDACTED
            : value;
  }
  return copy;
}

/**
 * The JSON body of a write, credentials redacted, with its weight in the log; none (logged as
 * `null`) without a body, for one that is not JSON (its 422 tells the rest), or for one too deep
 * or too heavy to keep. A
 * receipt, a disposition or an endpoint is kept as sent: only a field named like a credential, a
 * string holding a token or a secret, and the user and password of a URL are replaced.
 */
function readBody(text: string | undefined): { body: unknown; weight: number } | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch {
    return undefined;
  }
  // One walk copies, redacts, freezes and weighs the body, and stops as soon as it is too deep or
  // too heavy to keep: a body of many small objects is never copied whole to be thrown away.
  const tally = { weight: byteLength(text) };
  if (tally.weight > MAX_LOGGED_BODY_WEIGHT) return undefined;
  const body = keptCopy(parsed, MAX_BODY_DEPTH, tally);
  return body === NOT_KEPT ? undefined : { body, weight: tally.weight };
}

/** What each header of an entry costs beyond its name and value, about: its slot in an object. */
const HEADER_BYTES = 32;

/**
 * Deeper bodies are not kept (`null`): none of the API's is nested more than a few levels, and a
 * walk of a hostile one must not exhaust the stack.
 */
const MAX_BODY_DEPTH = 64;

/**
 * What each object or array of a kept body costs beyond its text, about: the log's budget is one
 * of memory, and a body of many small objects (`[{},{},...]`) weighs far more than its text.
 */
const NODE_BYTES = 64;

/**
 * The heaviest body kept, a quarter of the log's budget: far above any of the API's (a receipt
 * weighs about 2 KB), so that one request never takes the budget alone (the newest entry always
 * stays, whatever its weight).
 */
export const MAX_LOGGED_BODY_WEIGHT = REQUEST_LOG_BYTES / 4;

/** What {@link keptCopy} answers for a body too deep or too heavy to keep. */
const NOT_KEPT = Symbol('not kept');

/**
 * A frozen copy of a parsed body with its credentials redacted (a field named like a credential,
 * a string holding a token or a secret, the user and password of a URL, a field named with a
 * token), adding each object's weight to `tally`; {@link NOT_KEPT} as soon as an object lies
 * deeper than `levels` or the weight passes {@link MAX_LOGGED_BODY_WEIGHT}.
 */
function keptCopy(value: unknown, levels: number, tally: { weight: number }): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null) return value;
  tally.weight += NODE_BYTES;
  if (levels === 0 || tally.weight > MAX_LOGGED_BODY_WEIGHT) return NOT_KEPT;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let at = 0; at < value.length; at += 1) {
      const item = keptCopy(value[at], levels - 1, tally);
      if (item === NOT_KEPT) return NOT_KEPT;
      copy[at] = item;
    }
    return Object.freeze(copy);
  }
  const copy: Record<string, unknown> = {};
  for (const field in value) {
    const member = (value as Record<string, unknown>)[field];
    // A field named with a token or a secret keeps neither its name nor its value.
    const name = SECRET_VALUE.test(field) ? REDACTED : field;
    const kept =
      name === REDACTED || (SECRET_NAMES.test(name) && member !== null)
        ? REDACTED
        : keptCopy(member, levels - 1, tally);
    if (kept === NOT_KEPT) return NOT_KEPT;
    // A `__proto__` field is defined, not assigned, so that it stays a field.
    if (name === '__proto__')
      Object.defineProperty(copy, name, { value: kept, enumerable: true, writable: true, configurable: true });
    else copy[name] = kept;
  }
  return Object.freeze(copy);
}

/** A string with a token or secret redacted whole, or the user and password of a URL. */
function redactText(text: string): string {
  if (SECRET_VALUE.test(text)) return REDACTED;
  // Only a URL with credentials holds an `@` after its scheme: most texts need no replace.
  return text.includes('@') ? text.replace(URL_CREDENTIALS, `$1${REDACTED}@`) : text;
}

/** A character that UTF-8 writes in more than one byte. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every ASCII character, controls included
const NOT_ASCII = /[^\x00-\x7f]/;

/** The UTF-8 length of a string, without encoding it. */
function byteLength(text: string): number {
  // Most of what a request holds is ASCII, one byte a character: one native scan says so.
  if (!NOT_ASCII.test(text)) return text.length;
  let bytes = text.length;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    // Two bytes more for three-byte characters; a surrogate pair (two units) makes four bytes.
    if (code >= 0xd800 && code <= 0xdfff) bytes += 1;
    else if (code >= 0x800) bytes += 2;
    else if (code >= 0x80) bytes += 1;
  }
  return bytes;
}
