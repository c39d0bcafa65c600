import type { ValidationErrorBody, components } from '@fflkit/types';
import Joi, { type ObjectSchema, type ValidationErrorItem } from 'joi';
import { ApiError } from './errors';
import { isCalendarDate, parseDateTime } from './time';

// Reading a request body into valid input, and the contract's 422 when it is not. Every rule
// that fails is reported at once, per field, in Laravel's words, as the service answers. The joi
// rules of the contract's field formats are written here once, for every request schema.

/**
 * Messages per request field, collected across every rule before a 422 is answered, so that the
 * answer reports every failing field and not just the first.
 */
export class FieldErrors {
  readonly #messages = new Map<string, string[]>();

  /** Adds a message to a field. */
  add(field: string, message: string): void {
    const list = this.#messages.get(field);
    if (list === undefined) this.#messages.set(field, [message]);
    else if (!list.includes(message)) list.push(message);
  }

  /** Adds a message to a field that has none yet: one rule's failure hides the later rules. */
  addFirst(field: string, message: string): void {
    if (!this.#messages.has(field)) this.#messages.set(field, [message]);
  }

  /** Whether the field already failed a rule. */
  has(field: string): boolean {
    return this.#messages.has(field);
  }

  /** Whether no rule failed. */
  get isEmpty(): boolean {
    return this.#messages.size === 0;
  }

  /** How many fields failed a rule. */
  get size(): number {
    return this.#messages.size;
  }

  /**
   * The messages as the contract's `errors` object, fields in the given order first (the order
   * of the request schema), then any other in the order they failed.
   */
  toObject(order: readonly string[] = []): Record<string, string[]> {
    // Defined, not assigned: a field named `__proto__` (an unknown key a body sent) must stay a
    // field of the answer, not become its prototype.
    const result: Record<string, string[]> = {};
    const define = (field: string, list: string[]): void => {
      Object.defineProperty(result, field, { value: list, enumerable: true, writable: true, configurable: true });
    };
    for (const field of order) {
      const list = this.#messages.get(field);
      if (list !== undefined) define(field, list);
    }
    for (const [field, list] of this.#messages) {
      if (!Object.hasOwn(result, field)) define(field, list);
    }
    return result;
  }
}

/**
 * The contract's 422: `errors` per field, and `message` the first message followed by
 * `(and N more errors)` when there are more, as Laravel words it.
 */
export function validationFailed(errors: FieldErrors, order: readonly string[] = []): ApiError {
  const byField = errors.toObject(order);
  const messages = Object.values(byField).flat();
  const first = messages[0] ?? 'The given data was invalid.';
  const more = messages.length - 1;
  const message = more === 0 ? first : `${first} (and ${more} more ${more === 1 ? 'error' : 'errors'})`;
  const body: ValidationErrorBody = { message, errors: byField };
  return new ApiError(422, body);
}

/** A 422 with a single message on a single field. */
export function fieldInvalid(field: string, message: string): ApiError {
  return new ApiError(422, { message, errors: { [field]: [message] } });
}

/**
 * The human name of a request field in messages, as Laravel writes it: underscores become
 * spaces, nested parts are joined with dots (`['events', 0]` is `events.0`).
 */
export function fieldLabel(path: readonly (string | number)[]): string {
  return path.join('.').replaceAll('_', ' ');
}

/** What a failed rule tells about itself, as far as messages need it. */
export interface RuleFailure {
  /** The joi error type, such as `string.max`, or one of this package's custom types. */
  type: string;
  /** The field's label, such as `serial number`. */
  label: string;
  /** The rule's limit, where it has one. */
  limit?: unknown;
  /** Whether the field is required, which decides the message for an empty string. */
  required: boolean;
}

const MESSAGES: Readonly<Record<string, (failure: RuleFailure) => string>> = {
  'any.required': ({ label }) => `The ${label} field is required.`,
  'any.only': ({ label }) => `The selected ${label} is invalid.`,
  'any.invalid': ({ label }) => `The selected ${label} is invalid.`,
  'string.base': ({ label }) => `The ${label} field must be a string.`,
  'string.empty': ({ label, required }) =>
    required ? `The ${label} field is required.` : `The ${label} field must not be empty.`,
  'string.min': ({ label, limit }) => `The ${label} field must be at least ${String(limit)} characters.`,
  'string.max': ({ label, limit }) => `The ${label} field must not be greater than ${String(limit)} characters.`,
  'string.pattern.base': ({ label }) => `The ${label} field format is invalid.`,
  'string.url': ({ label }) => `The ${label} field must be a valid URL.`,
  'string.text': ({ label }) => `The ${label} field must not contain NUL characters or unpaired surrogates.`,
  'boolean.base': ({ label }) => `The ${label} field must be true or false.`,
  'number.base': ({ label }) => `The ${label} field must be a number.`,
  'number.integer': ({ label }) => `The ${label} field must be an integer.`,
  'number.min': ({ label, limit }) => `The ${label} field must be at least ${String(limit)}.`,
  'number.max': ({ label, limit }) => `The ${label} field must not be greater than ${String(limit)}.`,
  'number.unsafe': ({ label }) => `The ${label} field must not be greater than ${String(Number.MAX_SAFE_INTEGER)}.`,
  'number.decimals': ({ label }) => `The ${label} field must have at most 2 decimal places.`,
  'date.format': ({ label }) => `The ${label} field must be a valid date in the format YYYY-MM-DD.`,
  'date.min': ({ label }) => `The ${label} field must be a date after or equal to ${EARLIEST_DATE}.`,
  'datetime.format': ({ label }) =>
    `The ${label} field must be an RFC 3339 date-time with a UTC offset, such as 2025-03-01T00:00:00Z.`,
  'array.base': ({ label }) => `The ${label} field must be an array.`,
  'object.base': ({ label }) => `The ${label} field must be an object.`,
  'array.min': ({ label, limit }) => `The ${label} field must have at least ${String(limit)} items.`,
  'array.max': ({ label, limit }) => `The ${label} field must not have more than ${String(limit)} items.`,
  'array.wildcard': ({ label }) => `The ${label} field must hold * alone or event names only.`,
};

/** The Laravel-style message for a failed rule. */
export function laravelMessage(failure: RuleFailure): string {
  const messageFor = MESSAGES[failure.type];
  return messageFor === undefined ? `The ${failure.label} field is invalid.` : messageFor(failure);
}

/** A request body: its text, or an object already parsed (a record of a fixtures file). */
export type RequestBody = string | undefined | Record<string, unknown>;

/**
 * The request body as a JSON object. An absent or blank body is an empty object, as a form
 * without fields; malformed JSON, or JSON that is not an object, is the contract's 422 with
 * `errors.body`; a number of one of `fields` that JSON.parse would change (`1e-400` to 0) is a
 * 422 on that field. Callers read only the own keys they know, so keys such as `__proto__` never
 * reach a prototype.
 */
export function readJsonObject(text: RequestBody, fields: readonly string[]): Record<string, unknown> {
  // An object is a body already parsed (a fixtures file's record): nothing to read.
  if (typeof text === 'object') return text;
  // A UTF-8 byte order mark may precede JSON text (RFC 8259, section 8.1).
  const json = text?.startsWith('\uFEFF') ? text.slice(1) : text;
  if (json === undefined || json.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw fieldInvalid('body', 'The request body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw fieldInvalid('body', 'The request body must be a JSON object.');
  }
  if (MAYBE_INEXACT.test(json)) {
    const errors = new FieldErrors();
    for (const { path, value } of inexactNumbers(json)) {
      if (!fields.includes(path.split('.')[0]!)) continue;
      errors.add(
        path,
        `The ${fieldLabel(path.split('.'))} field must be a number that is stored as written: it would be stored as ${String(value)}.`,
      );
    }
    if (!errors.isEmpty) throw validationFailed(errors, fields);
  }
  return parsed as Record<string, unknown>;
}

// Only an exponent or 16 digits in a row can make a number that a double does not hold as
// written; bodies without either (nearly all) skip the scan.
const MAYBE_INEXACT = /\d[eE]|\d{16}/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The numbers of a JSON text (known to parse) that JSON.parse turns into another value: one that
 * underflows to 0 (`1e-400`), overflows, or has more digits than a double keeps
 * (`389.499999999999999999` is 389.5). Each with the path of its field, dots between parts.
 */
function inexactNumbers(json: string): { path: string; value: number }[] {
  const found: { path: string; value: number }[] = [];
  // One frame per open object or array: the key or index of the value being read.
  const path: (string | number)[] = [];
  const inArray: boolean[] = [];
  let at = 0;
  while (at < json.length) {
    const char = json[at]!;
    if (char === '"') {
      const end = stringEnd(json, at);
      if (inArray[inArray.length - 1] === false && isKey(json, end))
        path[path.length - 1] = JSON.parse(json.slice(at, end)) as string;
      at = end;
    } else if (char === '{' || char === '[') {
      inArray.push(char === '[');
      path.push(0);
      at += 1;
    } else if (char === '}' || char === ']') {
      inArray.pop();
      path.pop();
      at += 1;
    } else if (char === ',') {
      if (inArray[inArray.length - 1] === true) path[path.length - 1] = (path[path.length - 1] as number) + 1;
      at += 1;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      NUMBER.lastIndex = at;
      const token = NUMBER.exec(json)![0];
      const value = Number(token);
      if (!sameDecimal(token, value)) found.push({ path: path.join('.'), value });
      at += token.length;
    } else {
      at += 1;
    }
  }
  return found;
}

/** The index just past the closing quote of the JSON string that opens at `start`. */
function stringEnd(json: string, start: number): number {
  let at = start + 1;
  while (json[at] !== '"') at += json[at] === '\\' ? 2 : 1;
  return at + 1;
}

/** Whether the string that ends at `end` is an object's key: a colon follows it. */
function isKey(json: string, end: number): boolean {
  let at = end;
  while (json[at] === ' ' || json[at] === '\t' || json[at] === '\n' || json[at] === '\r') at += 1;
  return json[at] === ':';
}

/** Whether a number token and a double stand for the same decimal value. */
function sameDecimal(token: string, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  return canonicalDecimal(token) === canonicalDecimal(String(value));
}

/** A decimal as its sign, significant digits and exponent: `0.50` and `5e-1` give the same. */
function canonicalDecimal(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) return text;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  const trimmed = digits.replace(/0+$/, '');
  // The power of ten of the first significant digit.
  const leadingZeros = (whole + fraction).length - (whole + fraction).replace(/^0+/, '').length;
  const magnitude = whole.length - leadingZeros - 1 + Number(exponent);
  return `${sign}${trimmed}e${magnitude}`;
}

/**
 * A new plain object with the listed own fields of an untrusted object; everything else (unknown
 * fields, inherited properties, `__proto__`) is left behind.
 */
export function pickFields(source: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    if (Object.hasOwn(source, field)) picked[field] = source[field];
  }
  return picked;
}

/** A joi schema built on first use, then kept. */
export type LazySchema = () => ObjectSchema;

/**
 * Defers building a joi schema to its first use, so that loading the core (and starting the
 * sandbox) builds no schema that the first requests do not need. The schema carries the options
 * of {@link validateFields} as its own preferences: joi merges options given to `validate()` with
 * its defaults on every call, but a schema's own once (the create benchmarks).
 */
export function lazySchema(build: () => ObjectSchema): LazySchema {
  let schema: ObjectSchema | undefined;
  return () => (schema ??= build().prefs(JOI_OPTIONS));
}

const JOI_OPTIONS = { abortEarly: false, allowUnknown: true, convert: true } as const;

/**
 * Runs a joi schema over picked request fields, records the first failure of every field as a
 * Laravel-style message, and returns the value joi made (strings trimmed). Fields that failed are
 * left out of the value, so later rules only see valid data.
 */
export function validateFields(
  schema: LazySchema,
  input: Record<string, unknown>,
  errors: FieldErrors,
  requiredFields: ReadonlySet<string>,
): Record<string, unknown> {
  // Nothing to check and nothing required: joi would answer the empty object as it is (these
  // schemas hold rules for their keys only), so the schema is not built, nor joi loaded where it
  // loads at first use (a start makes its first account with no input; see the CLI's bundle).
  if (requiredFields.size === 0 && Object.keys(input).length === 0) return input;
  const result = schema().validate(input);
  const value = (result.value ?? {}) as Record<string, unknown>;
  for (const detail of result.error?.details ?? []) {
    errors.addFirst(detail.path.join('.'), messageOf(detail, requiredFields));
    const top = detail.path[0];
    if (typeof top === 'string') delete value[top];
  }
  return value;
}

function messageOf(detail: ValidationErrorItem, requiredFields: ReadonlySet<string>): string {
  return laravelMessage({
    type: detail.type,
    label: fieldLabel(detail.path),
    limit: detail.context?.['limit'],
    required: requiredFields.has(detail.path.join('.')),
  });
}

/**
 * The shape of a request body: its fields in the contract's order (the order of a 422's
 * `errors`), those it requires, and the joi rules of each. `T` is the valid input.
 */
export interface InputShape<T> {
  readonly fields: readonly (keyof T & string)[];
  readonly required: ReadonlySet<string>;
  readonly schema: LazySchema;
}

/** An input shape; every field is required unless `required` names fewer. */
export function inputShape<T>(
  fields: readonly (keyof T & string)[],
  build: () => ObjectSchema,
  required: readonly (keyof T & string)[] = fields,
): InputShape<T> {
  return { fields, required: new Set(required), schema: lazySchema(build) };
}

/**
 * Reads a request body (its text, or an object already parsed) into valid input: the shape's
 * fields picked and checked, then the rules across fields that `check` adds, and one 422 for
 * every failure. The value `check` sees holds only the fields that passed their own rules.
 */
export function readInput<T>(
  shape: InputShape<T>,
  body: RequestBody,
  check?: (value: Partial<T>, errors: FieldErrors) => void,
): T {
  const source = readJsonObject(body, shape.fields);
  const errors = new FieldErrors();
  const value = validateFields(shape.schema, pickFields(source, shape.fields), errors, shape.required) as Partial<T>;
  check?.(value, errors);
  if (!errors.isEmpty) throw validationFailed(errors, shape.fields);
  // Every required field passed its rules: joi reports a missing one.
  return value as T;
}

/**
 * Reports each item of a list of strings that repeats an earlier one, under `field.position`.
 * It stands in for joi's `array().unique()`, which compares items by deep equality before their
 * own rules run and so recurses through whatever nesting a client sends.
 */
export function reportDuplicates(field: string, values: readonly string[], errors: FieldErrors): void {
  const seen = new Set<string>();
  values.forEach((value, position) => {
    if (seen.has(value)) errors.add(`${field}.${position}`, `The ${field}.${position} field has a duplicate value.`);
    seen.add(value);
  });
}

/**
 * A string, trimmed before the other rules, of at most `max` characters. Characters are Unicode
 * code points, as JSON Schema's `maxLength` counts them (joi's own `max` counts UTF-16 units, so
 * an emoji would count twice). Numbers and other types are refused, never coerced.
 */
export function trimmedString(max: number): Joi.StringSchema {
  return Joi.string()
    .trim()
    .custom((value: string, helpers) => {
      if (!isPlainText(value)) return helpers.error('string.text');
      return characterCount(value) <= max ? value : helpers.error('string.max', { limit: max });
    });
}

/**
 * Whether a string is text a record can keep: no NUL (which C-based readers of an export take
 * for the end of the string) and no lone surrogate (which no UTF-8 file can hold, so the value
 * would change on its way to disk).
 */
export function isPlainText(value: string): boolean {
  return !NOT_PLAIN_TEXT.test(value);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this refuses
const NOT_PLAIN_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/**
 * A money amount: a number (not a numeric string), at least 0, with at most 2 decimal places.
 * The places are read from the number's shortest string form, so `0.1 + 0.2` is refused and
 * `389.5` is accepted, which a float `multipleOf(0.01)` cannot tell apart reliably.
 */
export function amount(): Joi.NumberSchema {
  return Joi.number()
    .strict()
    .min(0)
    .custom((value: number, helpers) => (hasAtMostTwoDecimals(value) ? value : helpers.error('number.decimals')));
}

function hasAtMostTwoDecimals(value: number): boolean {
  if (Number.isInteger(value)) return true;
  const text = String(value);
  if (text.includes('e')) return false;
  const point = text.indexOf('.');
  return point !== -1 && text.length - point - 1 <= 2;
}

/** A real `YYYY-MM-DD` date from 1900 on, trimmed first. */
export function calendarDate(): Joi.StringSchema {
  return Joi.string()
    .trim()
    .custom((value: string, helpers) => {
      if (!isCalendarDate(value)) return helpers.error('date.format');
      return value < EARLIEST_DATE ? helpers.error('date.min') : value;
    });
}

/**
 * The earliest date a record may carry. A firearms record dated before 1900 is a typing mistake
 * (a year of 0025 for 2025), and spreadsheets and many date libraries misread such years.
 */
const EARLIEST_DATE = '1900-01-01';

/** An RFC 3339 date-time with a UTC offset, trimmed first. */
export function dateTime(): Joi.StringSchema {
  return Joi.string()
    .trim()
    .custom((value: string, helpers) =>
      parseDateTime(value) === undefined ? helpers.error('datetime.format') : value,
    );
}

/** An absolute http(s) URL of at most `max` characters, trimmed first. */
export function httpUrl(max: number): Joi.StringSchema {
  return Joi.string()
    .trim()
    .max(max)
    .custom((value: string, helpers) => (isHttpUrl(value) ? value : helpers.error('string.url')));
}

// The contract's pattern for http(s) URLs: the scheme and both slashes as written, which
// `new URL()` would otherwise repair (`http:/example.com` parses as `http://example.com/`).
const HTTP_URL_PREFIX = /^https?:\/\//i;

function isHttpUrl(value: string): boolean {
  if (!isPlainText(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  // Credentials in a URL would be stored and shown back by every list of endpoints.
  return HTTP_URL_PREFIX.test(value) && url.hostname !== '' && url.username === '' && url.password === '';
}

/** The federal firearms license number `R-DD-CCC-TT-YM-SSSSS`, hyphens optional (`LicenseNumber`). */
export const LICENSE_NUMBER_PATTERN = /^[13456789]-?\d{2}-?\d{3}-?\d{2}-?\d[A-HJ-M]-?\d{5}$/;

/** A ZIP or ZIP+4 code (`ZipCode`). */
export const ZIP_CODE_PATTERN = /^\d{5}(-\d{4})?$/;

/** A media type such as `application/pdf` (the control API's `DocumentCreate.mime_type`). */
export const MIME_TYPE_PATTERN = /^[^/\s]+\/[^/\s]+$/;

type StateCode = components['schemas']['StateCode'];

// Typed against the generated contract, so a code added to or removed from openapi.yaml fails
// the type check here.
const CODES = {
  AL: 1,
  AK: 1,
  AZ: 1,
  AR: 1,
  CA: 1,
  CO: 1,
  CT: 1,
  DE: 1,
  FL: 1,
  GA: 1,
  HI: 1,
  ID: 1,
  IL: 1,
  IN: 1,
  IA: 1,
  KS: 1,
  KY: 1,
  LA: 1,
  ME: 1,
  MD: 1,
  MA: 1,
  MI: 1,
  MN: 1,
  MS: 1,
  MO: 1,
  MT: 1,
  NE: 1,
  NV: 1,
  NH: 1,
  NJ: 1,
  NM: 1,
  NY: 1,
  NC: 1,
  ND: 1,
  OH: 1,
  OK: 1,
  OR: 1,
  PA: 1,
  RI: 1,
  SC: 1,
  SD: 1,
  TN: 1,
  TX: 1,
  UT: 1,
  VT: 1,
  VA: 1,
  WA: 1,
  WV: 1,
  WI: 1,
  WY: 1,
  DC: 1,
  PR: 1,
  GU: 1,
  VI: 1,
  AS: 1,
  MP: 1,
} as const satisfies Record<StateCode, 1>;

/** The contract's `StateCode`: USPS codes of the 50 states, DC, PR, GU, VI, AS and MP. */
const STATE_CODES: readonly StateCode[] = Object.keys(CODES) as StateCode[];

/** A USPS state code, trimmed first. */
export function stateCode(): Joi.StringSchema {
  return Joi.string()
    .trim()
    .valid(...STATE_CODES);
}
