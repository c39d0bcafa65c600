import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { CONTRACT_BASE, CONTRACT_DOCUMENT, locationOf, nodeAt, pointerSegment } from './contract';
import { describeValue } from './violations';

// Values checked against the contract's JSON Schemas (draft 2020-12, the dialect of OpenAPI
// 3.1) with Ajv, each schema compiled once. A valid value costs one quick validator; an invalid
// one is checked again by a second validator that gathers every error with the schema node it
// failed at, and the errors are reduced to the problems a person would name: one per field,
// the branch of a `oneOf` that the value was meant for, and a missing field beside an unknown
// one told as the one break it is (a renamed field).

/** One way a value fails a schema. */
export interface SchemaProblem {
  /** Where in the value, as a JSON pointer (`/data/0/record`); a missing field's own place. */
  readonly pointer: string;
  /** Where in the contract the failing keyword is (`#/components/schemas/Receipt/required`). */
  readonly location: string;
  /** What the contract expects, in words. */
  readonly expected: string;
  /** What was there, in words. */
  readonly seen: string;
}

/** The contract's schemas, compiled on first use and kept. */
export class SchemaChecker {
  readonly #quick = createAjv(false);
  readonly #thorough = createAjv(true);
  readonly #validators = new Map<string, { quick: ValidateFunction; thorough?: ValidateFunction }>();

  /**
   * Compiles the schemas at `pointers` now, so that no check of a valid value waits on a
   * compilation later (the validator that explains an invalid one is compiled when first needed).
   */
  prepare(pointers: Iterable<string>): void {
    for (const pointer of pointers) this.#validator(pointer);
  }

  /** The problems of `value` against the schema at `pointer` (`#/components/schemas/Book`); empty when it is valid. */
  check(pointer: string, value: unknown): SchemaProblem[] {
    const validator = this.#validator(pointer);
    if (validator.quick(value)) return [];
    validator.thorough ??= this.#thorough.compile(reference(pointer));
    validator.thorough(value);
    return reduce(validator.thorough.errors ?? []);
  }

  #validator(pointer: string): { quick: ValidateFunction; thorough?: ValidateFunction } {
    let validator = this.#validators.get(pointer);
    if (validator === undefined) {
      validator = { quick: this.#quick.compile(reference(pointer)) };
      this.#validators.set(pointer, validator);
    }
    return validator;
  }
}

function reference(pointer: string): { $ref: string } {
  return { $ref: `${CONTRACT_BASE}${pointer}` };
}

function createAjv(thorough: boolean): Ajv2020 {
  // strict off: the contract holds OpenAPI's own keywords (example, discriminator, x-...).
  const ajv = new Ajv2020({ strict: false, allErrors: thorough, verbose: thorough, validateSchema: false });
  addFormats(ajv);
  // A page of receipts holds some 75 dates and date-times: checked as strictly as ajv-formats
  // does (RFC 3339, a real day of the calendar, an offset), at a third of the cost.
  ajv.addFormat('date', { type: 'string', validate: isDate });
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  ajv.addSchema(CONTRACT_DOCUMENT, CONTRACT_BASE);
  return ajv;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ]([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** An RFC 3339 full-date that names a day of the calendar. */
function isDate(text: string): boolean {
  const match = DATE.exec(text);
  return match !== null && isDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** An RFC 3339 date-time with its offset, on a day of the calendar (a leap second only at 23:59). */
function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (match === null || !isDay(Number(match[1]), Number(match[2]), Number(match[3]))) return false;
  return match[6] !== '60' || (match[4] === '23' && match[5] === '59') || /[+-]/.test(text.slice(19));
}

function isDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= DAYS[month - 1]! + (leap ? 1 : 0);
}

/** Ajv's errors as problems: `oneOf` branches resolved, renamed fields folded, one per place. */
function reduce(errors: readonly ErrorObject[]): SchemaProblem[] {
  const kept: ErrorObject[] = [];
  for (const error of errors) {
    if (error.keyword !== 'oneOf' && error.keyword !== 'anyOf') {
      kept.push(error);
      continue;
    }
    // The errors of the branches come right before the error of the `oneOf` itself.
    const branches: ErrorObject[] = [];
    while (kept.length > 0 && within(kept[kept.length - 1]!.instancePath, error.instancePath)) {
      branches.unshift(kept.pop()!);
    }
    // A value that is not null was not meant for the branch that allows null.
    const meant = branches.filter(
      (branch) =>
        error.data === null ||
        !(branch.keyword === 'type' && branch.instancePath === error.instancePath && branch.params['type'] === 'null'),
    );
    const explained = meant.some(
      (branch) =>
        branch.instancePath !== error.instancePath || ['required', 'additionalProperties'].includes(branch.keyword),
    );
    if (explained) kept.push(...meant);
    else kept.push(error);
  }
  return fold(kept);
}

/** Problems of kept errors; a missing field and an unknown one of the same object become one. */
function fold(errors: readonly ErrorObject[]): SchemaProblem[] {
  const unknown = new Map<string, string[]>();
  for (const error of errors) {
    const name = extraName(error);
    if (name !== undefined) unknown.set(error.instancePath, [...(unknown.get(error.instancePath) ?? []), name]);
  }
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  const push = (problem: SchemaProblem): void => {
    if (seen.has(problem.pointer)) return;
    seen.add(problem.pointer);
    problems.push(problem);
  };
  const missingAt = new Set(errors.filter((e) => e.keyword === 'required').map((e) => e.instancePath));
  for (const error of errors) {
    const location = `${locationOf(error.parentSchema) ?? '#'}/${error.keyword}`;
    if (error.keyword === 'required') {
      const others = unknown.get(error.instancePath) ?? [];
      push({
        pointer: `${error.instancePath}/${pointerSegment(String(error.params['missingProperty']))}`,
        location,
        expected: 'present',
        seen:
          others.length === 0
            ? 'absent'
            : `absent; the object has ${others.map((name) => JSON.stringify(name)).join(', ')} instead, which the contract does not name`,
      });
      continue;
    }
    const name = extraName(error);
    if (name !== undefined) {
      // Told with the missing field it replaces, when there is one.
      if (missingAt.has(error.instancePath)) continue;
      push({
        pointer: `${error.instancePath}/${pointerSegment(name)}`,
        location,
        expected: 'absent: the contract names no such field',
        seen: describeValue((error.data as Record<string, unknown>)[name]),
      });
      continue;
    }
    push({ pointer: error.instancePath, location, expected: expectation(error), seen: describeValue(error.data) });
  }
  return problems;
}

function extraName(error: ErrorObject): string | undefined {
  if (error.keyword === 'additionalProperties') return String(error.params['additionalProperty']);
  if (error.keyword === 'unevaluatedProperties') return String(error.params['unevaluatedProperty']);
  return undefined;
}

function within(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}/`);
}

/** What a failed keyword asked for, in words. */
function expectation(error: ErrorObject): string {
  const { params } = error;
  switch (error.keyword) {
    case 'type': {
      const types = ([] as string[]).concat(params['type'] as string | string[]);
      return types
        .map((type) => (type === 'integer' ? 'an integer' : type === 'null' ? 'null' : `a ${type}`))
        .join(' or ');
    }
    case 'const':
      return JSON.stringify(params['allowedValue']);
    case 'enum':
      return `one of ${(params['allowedValues'] as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'format':
      return `a ${String(params['format'])}`;
    case 'pattern':
      return `text matching ${String(params['pattern'])}`;
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum':
      return `a number ${String(params['comparison'])} ${String(params['limit'])}`;
    case 'minLength':
      return `at least ${String(params['limit'])} characters`;
    case 'maxLength':
      return `at most ${String(params['limit'])} characters`;
    case 'minItems':
      return `at least ${String(params['limit'])} items`;
    case 'maxItems':
      return `at most ${String(params['limit'])} items`;
    case 'minProperties':
      return `at least ${String(params['limit'])} fields`;
    case 'uniqueItems':
      return 'distinct items';
    case 'oneOf':
    case 'anyOf':
      return branchesOf(error.schema);
    default:
      return error.message ?? error.keyword;
  }
}

/** The branches of a `oneOf` in words: `one of "a", "b" or "*"`, `a Disposition or null`. */
function branchesOf(branches: unknown): string {
  if (!Array.isArray(branches)) return 'one of the shapes the contract allows';
  const words = branches.flatMap((branch: Record<string, unknown>): string[] => {
    const ref = branch['$ref'];
    const node = (typeof ref === 'string' ? nodeAt(ref) : branch) as Record<string, unknown> | undefined;
    if (node === undefined || node === null) return [];
    if (Array.isArray(node['enum'])) return node['enum'].map((value) => JSON.stringify(value));
    if ('const' in node) return [JSON.stringify(node['const'])];
    if (node['type'] === 'null') return ['null'];
    if (typeof ref === 'string') return [`a ${ref.split('/').pop()}`];
    return typeof node['type'] === 'string' ? [`a ${node['type']}`] : [];
  });
  if (words.length === 0) return 'one of the shapes the contract allows';
  return words.length === 1 ? words[0]! : `one of ${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}
