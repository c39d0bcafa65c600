import { DEFAULT_PER_PAGE, MAX_PER_PAGE, type Page } from '@fflkit/types';
import { FieldErrors, fieldLabel, isPlainText, laravelMessage, validationFailed } from './input';
import { parseDateTime } from './time';

// A request as every transport hands it to the core, its query parameters, and the pages of a
// list answered in Laravel's envelope.

/**
 * A request as any transport hands it to the core: the Hapi server, MSW handlers or a test.
 * The core parses the body itself so that every face answers malformed JSON the same way.
 */
export interface SandboxRequest {
  /** HTTP method, upper-case. */
  method: string;
  /** Path from the origin, such as `/rest/v1/receipts/12` or `/_sandbox/clock`. */
  path: string;
  /** Raw query string without the leading `?`; `''` when there is none. */
  query: string;
  /** Request headers with lower-case names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** Raw body text; `undefined` when the request has no body. */
  body?: string | undefined;
}

/**
 * The core's answer: a status, headers and a JSON-serialisable body (absent for 204). A body
 * that is a string with a `Content-Type` header of its own (a CSV export) is sent as it is.
 */
export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  /**
   * Set on the answer to a request that a fault rule of its account acted on: what the
   * transport must carry out, since the core can neither wait nor drop a connection.
   */
  fault?: TransportFault;
}

/**
 * What a fault rule asks of the transport: wait `delayMs` milliseconds before sending the answer
 * (or before dropping), and, when `drop` is true, close the connection without any answer (the
 * answer's `status` is then 0 and it has no body). The sandbox destroys the socket; the MSW
 * handlers answer a network error.
 */
export interface TransportFault {
  /** The id of the rule that acted. */
  readonly rule: number;
  readonly delayMs: number;
  readonly drop: boolean;
}

/**
 * The largest request body the service accepts: 1 MB (1,048,576 bytes). A transport refuses a
 * larger body with 413 and {@link PAYLOAD_TOO_LARGE_MESSAGE} as it reads it, before the core.
 */
export const MAX_BODY_BYTES = 1_048_576;

/** The `message` of the 413 for a body over {@link MAX_BODY_BYTES} (`PayloadTooLarge` in openapi.yaml). */
export const PAYLOAD_TOO_LARGE_MESSAGE = 'The request body is larger than 1 MB.';

/** A host name, IPv4 or bracketed IPv6 address, with an optional port. */
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin the client used, for absolute links: `x-forwarded-proto` (`http` or `https`) or
 * `http`, and the `host` header when it is a well-formed host, else `localhost`, so every link
 * is a valid URL.
 */
export function requestOrigin(headers: SandboxRequest['headers']): string {
  const forwarded = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  const scheme = forwarded === 'https' || forwarded === 'http' ? forwarded : 'http';
  const host = headers['host']?.trim() ?? '';
  return `${scheme}://${HOST.test(host) ? host : 'localhost'}`;
}

/** The page a list asks for. */
export interface PageParams {
  page: number;
  perPage: number;
}

/**
 * A parameter's name written as a list in brackets, as PHP, Rails and `qs` write arrays: `q[]`,
 * `q[0]`, `q[a][b]`; the first group is the parameter's own name.
 */
const BRACKETED = /^([^[\]]+)(?:\[[^[\]]*\])+$/;

/**
 * Reads the query parameters an operation knows, each trimmed, and collects a 422 message keyed
 * by the parameter's name for every malformed, repeated or invalid one; {@link assertValid}
 * throws them all at once. A known parameter written as a list in brackets (`q[]=a`, `q[0]=a`)
 * is refused like a repeated one: a client that sends arrays that way must not get an
 * unfiltered answer. Unknown parameters are ignored. Values are decoded as browsers encode
 * forms: `+` is a space.
 */
export class QueryReader {
  readonly #values = new Map<string, string[]>();
  readonly #malformed = new Set<string>();
  /** The first bracketed form of each parameter written as a list (`q` to `q[]`). */
  readonly #lists = new Map<string, string>();
  readonly #errors = new FieldErrors();

  constructor(query: string) {
    for (const part of query === '' ? [] : query.split('&')) {
      if (part === '') continue;
      const equals = part.indexOf('=');
      const rawName = equals === -1 ? part : part.slice(0, equals);
      const name = decode(rawName);
      const value = name === undefined ? undefined : decode(equals === -1 ? '' : part.slice(equals + 1));
      if (name === undefined || value === undefined) {
        this.#malformed.add(name ?? rawName);
        continue;
      }
      const list = this.#values.get(name);
      if (list === undefined) this.#values.set(name, [value]);
      else list.push(value);
      const bracketed = BRACKETED.exec(name)?.[1];
      if (bracketed !== undefined && !this.#lists.has(bracketed)) this.#lists.set(bracketed, name);
    }
  }

  /** The trimmed value of a parameter given once; `undefined` when absent or refused. */
  string(name: string): string | undefined {
    if (this.#malformed.has(name)) {
      this.#fail(name, `The ${fieldLabel([name])} field is not correctly percent-encoded.`);
      return undefined;
    }
    const form = this.#lists.get(name);
    if (form !== undefined) {
      this.#fail(
        name,
        `The ${fieldLabel([name])} field must be given only once, as ${name}=value, not as a list (${form}).`,
      );
      return undefined;
    }
    const list = this.#values.get(name);
    if (list === undefined) return undefined;
    if (list.length > 1) {
      this.#fail(name, `The ${fieldLabel([name])} field must be given only once.`);
      return undefined;
    }
    const value = (list[0] ?? '').trim();
    return isPlainText(value) ? value : this.#failRule(name, 'string.text');
  }

  /** A string of 1 to `max` characters. */
  text(name: string, max: number): string | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (value === '') return this.#failRule(name, 'string.empty');
    if (value.length > max) return this.#failRule(name, 'string.max', max);
    return value;
  }

  /** A string of 1 to `max` characters that must be given; `''` when it fails. */
  required(name: string, max: number): string {
    const value = this.string(name);
    if (value === undefined || value === '') {
      if (!this.#errors.has(name)) this.#failRule(name, 'any.required');
      return '';
    }
    if (value.length > max) this.#failRule(name, 'string.max', max);
    return value;
  }

  /** One of the given values. */
  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) return this.#failRule(name, 'any.only');
    return value as T;
  }

  /** A whole number from `min` to `max`, written in decimal digits. */
  integer(name: string, min: number, max: number): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    const number = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(number)) return this.#failRule(name, 'number.integer');
    if (number < min || number > max) {
      const label = fieldLabel([name]);
      this.#fail(
        name,
        max === Number.MAX_SAFE_INTEGER
          ? `The ${label} field must be at least ${min}.`
          : `The ${label} field must be between ${min} and ${max}.`,
      );
      return undefined;
    }
    return number;
  }

  /** An RFC 3339 date-time with a UTC offset, as epoch milliseconds. */
  dateTime(name: string): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    const ms = parseDateTime(value);
    return ms === undefined ? this.#failRule(name, 'datetime.format') : ms;
  }

  /** `page` (1-based) and `per_page` (1 to 200, 25 by default), as the contract's lists take them. */
  page(): PageParams {
    return {
      page: this.integer('page', 1, Number.MAX_SAFE_INTEGER) ?? 1,
      perPage: this.integer('per_page', 1, MAX_PER_PAGE) ?? DEFAULT_PER_PAGE,
    };
  }

  /** Throws the 422 of every parameter that failed, fields in the given order. */
  assertValid(order: readonly string[]): void {
    if (!this.#errors.isEmpty) throw validationFailed(this.#errors, order);
  }

  #failRule(name: string, type: string, limit?: number): undefined {
    this.#fail(name, laravelMessage({ type, label: fieldLabel([name]), limit, required: false }));
    return undefined;
  }

  #fail(name: string, message: string): void {
    this.#errors.addFirst(name, message);
  }
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

/** What a page's links are made of: the request's origin, path and query. */
export type PageRequest = Pick<SandboxRequest, 'path' | 'query' | 'headers'>;

/**
 * One page of a list in Laravel's envelope: `data`, `links` (absolute URLs that keep the
 * request's other query parameters) and `meta`. Only the page's items are copied, so an
 * unfiltered page costs the same at any list size.
 */
export function paginate<Item>(items: readonly Item[], params: PageParams, request: PageRequest): Page<Item> {
  const start = (params.page - 1) * params.perPage;
  return pageOf(items.length, items.slice(start, start + params.perPage), params, request);
}

/**
 * The page `params` asks for of a list of `total` items, given only the items of that page
 * (`data`): for a scan that counts its matches and keeps only the page's, rather than listing
 * them all (a million receipts' filtered lists, whose every query would otherwise make a list of
 * a million).
 */
export function pageOf<Item>(
  total: number,
  data: Item[],
  { page, perPage }: PageParams,
  request: PageRequest,
): Page<Item> {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const start = (page - 1) * perPage;
  const path = `${requestOrigin(request.headers)}${request.path}`;
  const link = (target: number): string => pageUrl(path, request.query, target);
  return {
    data,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(page - 1) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
    meta: {
      current_page: page,
      from: data.length === 0 ? null : start + 1,
      last_page: lastPage,
      path,
      per_page: perPage,
      to: data.length === 0 ? null : start + data.length,
      total,
    },
  };
}

/**
 * The URL of another page of the same list: the request's query as the client wrote it, with
 * `page` set (in place, or appended when absent).
 */
export function pageUrl(path: string, query: string, page: number): string {
  const kept: string[] = [];
  let replaced = false;
  for (const part of query === '' ? [] : query.split('&')) {
    if (!isPagePart(part)) {
      kept.push(part);
    } else if (!replaced) {
      kept.push(`page=${page}`);
      replaced = true;
    }
  }
  if (!replaced) kept.push(`page=${page}`);
  return `${path}?${kept.join('&')}`;
}

function isPagePart(part: string): boolean {
  const equals = part.indexOf('=');
  return decode(equals === -1 ? part : part.slice(0, equals)) === 'page';
}
