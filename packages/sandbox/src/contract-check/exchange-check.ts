import { createHmac, randomBytes } from 'node:crypto';
import { answerFindings } from './answer-rules';
import { choiceGoverning, choiceId } from './choices';
import { CONTRACT_OPERATIONS, type ContractOperation, findOperation, nodeAt } from './contract';
import { ReadAfterWrite } from './read-after-write';
import { SchemaChecker } from './schema-check';
import { describeValue, type ViolationFinding } from './violations';

// One exchange of the service API (a request and its answer, as bytes) checked against the
// contract: the operation it addresses (or the 404 of a path that names none), the status the
// operation allows, the headers its answer declares, the body against its schema, the rules a
// schema cannot state, and what the caller made or deleted before. A request the contract
// refuses (a query parameter out of range, a body that breaks its schema) must not succeed.

/** Headers as Node gives them: names in lower case. */
export type HeaderMap = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A request to the service API and its answer, as they went over the wire. */
export interface Exchange {
  readonly method: string;
  /** The path and query after the API's base URL, as sent: `/receipts?per_page=2`. */
  readonly target: string;
  readonly requestHeaders: HeaderMap;
  /** The request's body, or `undefined` without one. */
  readonly requestBody?: Uint8Array | undefined;
  readonly status: number;
  readonly responseHeaders: HeaderMap;
  /** The answer's body, decoded from any content coding. */
  readonly responseBody: Uint8Array;
  /** When the request arrived and when its answer ended, on one counter for the exchanges of a checker. */
  readonly started: number;
  readonly ended: number;
}

const UNKNOWN_ROUTE = choiceId('routing.unknown-route');
const NO_SERVER_ERRORS = choiceId('errors.no-server-errors');
const MALFORMED_JSON = choiceId('errors.malformed-json');

/** Request headers of the sandbox's injected faults: such an answer is a test's, not the service's. */
const FAULT_HEADER = 'x-sandbox-fault';
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining'];
const FILTERS = ['book', 'status', 'serial_number', 'manufacturer', 'since'];
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** A check of exchanges against the contract, with what it remembers of the callers' writes. */
export class ExchangeChecker {
  readonly #schemas: SchemaChecker;
  readonly #visibility: ReadAfterWrite | undefined;
  // Callers are told apart by a keyed hash of their Authorization header, never kept as sent.
  readonly #key = randomBytes(32);

  /**
   * `readAfterWrite: false` leaves out the checks across exchanges (a receipt made and not yet
   * visible, or deleted and still shown), for a caller that probes them itself.
   */
  constructor(
    options: { readonly schemas?: SchemaChecker | undefined; readonly readAfterWrite?: boolean | undefined } = {},
  ) {
    this.#schemas = options.schemas ?? new SchemaChecker();
    this.#visibility = options.readAfterWrite === false ? undefined : new ReadAfterWrite();
  }

  /**
   * Who sent a request, told apart by a keyed hash of its `Authorization`: the same caller
   * gets the same name while this checker lives, and no token is kept.
   */
  callerOf(authorization: string): string {
    return createHmac('sha256', this.#key).update(authorization).digest('base64');
  }

  /** Compiles every schema an exchange can meet, so that the first checks wait on nothing. */
  prepare(): void {
    this.#schemas.prepare(
      CONTRACT_OPERATIONS.flatMap((operation) => [
        ...operation.parameters.map((parameter) => parameter.schema),
        ...(operation.body === undefined ? [] : [operation.body]),
        ...[...operation.answers.values()].flatMap((answer) => [
          ...answer.headers.map((header) => header.schema),
          ...(answer.body === undefined ? [] : [answer.body]),
        ]),
      ]),
    );
  }

  /** What of `exchange` departs from the contract. */
  check(exchange: Exchange): ViolationFinding[] {
    const method = exchange.method.toUpperCase();
    if (method === 'OPTIONS' || header(exchange.responseHeaders, FAULT_HEADER) !== undefined) return [];
    const queryAt = exchange.target.indexOf('?');
    const path = queryAt === -1 ? exchange.target : exchange.target.slice(0, queryAt);
    const query = new URLSearchParams(queryAt === -1 ? '' : exchange.target.slice(queryAt + 1));
    const found = findOperation(method, path);
    const id = found === undefined ? undefined : wholeNumber(found.params['id']);
    const routed = found !== undefined && pathParametersValid(found.operation, found.params, this.#schemas);
    if (!routed) return this.#unknownRoute(method, path, exchange);

    const { operation } = found;
    const at = { method, path: operation.template, status: exchange.status };
    const place = (finding: Omit<ViolationFinding, 'method' | 'path' | 'status'>): ViolationFinding => ({
      ...at,
      ...finding,
    });
    if (exchange.status >= 500) {
      return [
        place({
          pointer: '/status',
          choice: NO_SERVER_ERRORS,
          expected: `one of ${statuses(operation)}, never a 5xx`,
          seen: String(exchange.status),
        }),
      ];
    }
    const status = String(exchange.status);
    const answer = operation.answers.get(status) ?? operation.answers.get(`${status[0]}XX`);
    if (answer === undefined) {
      return [
        place({
          pointer: '/status',
          choice: choiceGoverning(`${operation.location}/responses`),
          expected: `one of ${statuses(operation)}`,
          seen: status,
        }),
      ];
    }
    const findings: ViolationFinding[] = [];
    if (exchange.status < 300) {
      const refusal = this.#refusal(operation, query, exchange);
      if (refusal !== undefined) findings.push(place({ pointer: '/status', ...refusal, seen: status }));
    }
    for (const declared of answer.headers) {
      const value = header(exchange.responseHeaders, declared.name);
      const pointer = `/headers/${declared.name}`;
      if (value === undefined) {
        findings.push(
          place({ pointer, choice: choiceGoverning(declared.location), expected: 'present', seen: 'absent' }),
        );
        continue;
      }
      const typed =
        (declared.type === 'integer' || declared.type === 'number') && /^-?\d+(\.\d+)?$/.test(value)
          ? Number(value)
          : value;
      for (const problem of this.#schemas.check(declared.schema, typed)) {
        findings.push(
          place({ pointer, choice: choiceGoverning(problem.location), expected: problem.expected, seen: problem.seen }),
        );
      }
    }
    if (method === 'HEAD') return findings;
    if (answer.body === undefined) {
      if (exchange.responseBody.length > 0) {
        findings.push(
          place({
            pointer: '/body',
            choice: choiceGoverning(`${operation.location}/responses`),
            expected: 'no body',
            seen: `${exchange.responseBody.length} bytes`,
          }),
        );
      }
      findings.push(...this.#observe(operation, id, query, exchange, undefined));
      return findings;
    }
    const body = parseJson(exchange.responseBody);
    const type = header(exchange.responseHeaders, 'content-type');
    if (type === undefined || !JSON_TYPE.test(type)) {
      findings.push(
        place({ pointer: '/headers/content-type', choice: null, expected: 'application/json', seen: type ?? 'absent' }),
      );
    }
    if (body === NOT_JSON) {
      findings.push(
        place({
          pointer: '/body',
          choice: null,
          expected: 'a JSON body',
          seen: describeValue(text(exchange.responseBody)),
        }),
      );
      return findings;
    }
    const problems = this.#schemas.check(answer.body, body);
    for (const problem of problems) {
      findings.push(
        place({
          pointer: `/body${problem.pointer}`,
          choice: choiceGoverning(problem.location),
          expected: problem.expected,
          seen: problem.seen,
        }),
      );
    }
    // The rules below read the body as its schema has it.
    const valid = problems.length === 0 ? body : undefined;
    if (valid !== undefined)
      for (const finding of answerFindings(operation.id, query, exchange.status, valid)) findings.push(place(finding));
    findings.push(...this.#observe(operation, id, query, exchange, valid));
    return findings;
  }

  /** A path that names no operation: 404 in the error shape, before any check, without rate-limit headers. */
  #unknownRoute(method: string, path: string, exchange: Exchange): ViolationFinding[] {
    const at = { method, path, status: exchange.status, choice: UNKNOWN_ROUTE };
    if (exchange.status !== 404) {
      return [
        {
          ...at,
          pointer: '/status',
          expected: '404: no operation has this method and path',
          seen: String(exchange.status),
        },
      ];
    }
    const findings: ViolationFinding[] = [];
    for (const name of RATE_LIMIT_HEADERS) {
      const value = header(exchange.responseHeaders, name);
      if (value !== undefined) findings.push({ ...at, pointer: `/headers/${name}`, expected: 'absent', seen: value });
    }
    const body = method === 'HEAD' ? undefined : parseJson(exchange.responseBody);
    if (body !== undefined) {
      for (const problem of this.#schemas.check(
        '#/components/schemas/ErrorBody',
        body === NOT_JSON ? text(exchange.responseBody) : body,
      )) {
        findings.push({
          ...at,
          pointer: `/body${problem.pointer}`,
          choice: choiceGoverning(problem.location),
          expected: problem.expected,
          seen: problem.seen,
        });
      }
    }
    return findings;
  }

  /**
   * Why the contract refuses the request, when it does: no token, a query parameter or a body
   * its schema refuses, a body that is not JSON. Such a request must not succeed.
   */
  #refusal(
    operation: ContractOperation,
    query: URLSearchParams,
    exchange: Exchange,
  ): { choice: string | null; expected: string } | undefined {
    if (header(exchange.requestHeaders, 'authorization') === undefined) {
      return { choice: null, expected: 'a 401: the request carries no token' };
    }
    for (const parameter of operation.parameters) {
      if (parameter.in !== 'query') continue;
      const values = query.getAll(parameter.name);
      if (values.length > 1) continue;
      if (values.length === 0) {
        if (parameter.required)
          return { choice: choiceGoverning(parameter.location), expected: `a 422: the query lacks ${parameter.name}` };
        continue;
      }
      const [problem] = this.#schemas.check(parameter.schema, typedQueryValue(parameter.schema, values[0]!));
      if (problem !== undefined) {
        return {
          choice: choiceGoverning(problem.location),
          expected: `a 422: the query's ${parameter.name} should be ${problem.expected}, not ${problem.seen}`,
        };
      }
    }
    if (operation.body === undefined) return undefined;
    const type = header(exchange.requestHeaders, 'content-type');
    if (type !== undefined && !JSON_TYPE.test(type)) return undefined;
    const sent = exchange.requestBody ?? new Uint8Array();
    const body = parseJson(sent);
    if (body === NOT_JSON || (sent.length === 0 && body === undefined)) {
      return { choice: MALFORMED_JSON, expected: 'a 422: the request body is not JSON' };
    }
    const [problem] = this.#schemas.check(operation.body, body);
    if (problem === undefined) return undefined;
    return {
      choice: choiceGoverning(problem.location),
      expected: `a 422: the request body's ${problem.pointer.slice(1) || 'body'} should be ${problem.expected}, not ${problem.seen}`,
    };
  }

  #observe(
    operation: ContractOperation,
    id: number | undefined,
    query: URLSearchParams,
    exchange: Exchange,
    body: unknown,
  ) {
    const authorization = header(exchange.requestHeaders, 'authorization');
    if (authorization === undefined || this.#visibility === undefined) return [];
    return this.#visibility.observe({
      caller: this.callerOf(authorization),
      operation: operation.id,
      method: exchange.method.toUpperCase(),
      path: operation.template,
      id,
      status: exchange.status,
      body,
      unfiltered: FILTERS.every((name) => !query.has(name)),
      started: exchange.started,
      ended: exchange.ended,
    });
  }
}

const NOT_JSON = Symbol('not JSON');

/** The parsed body; `undefined` when empty; {@link NOT_JSON} when it is not UTF-8 JSON. */
function parseJson(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return NOT_JSON;
  }
}

function text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** A header's value, the first when it came more than once. */
export function header(headers: HeaderMap, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : value?.[0];
}

function statuses(operation: ContractOperation): string {
  return [...operation.answers.keys()].join(', ');
}

function wholeNumber(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

/** A query parameter's text as the type its schema names, so that `per_page=abc` fails as text. */
function typedQueryValue(schema: string, value: string): unknown {
  const node = nodeAt(schema) as { type?: unknown } | undefined;
  if ((node?.type === 'integer' || node?.type === 'number') && /^-?\d+(\.\d+)?$/.test(value.trim()))
    return Number(value);
  return value;
}

/**
 * Whether the path's parameters are of their schemas' types, as a router matches them:
 * `/receipts/abc` names no operation, `/receipts/0` names one (and its record is not found).
 */
function pathParametersValid(
  operation: ContractOperation,
  params: Readonly<Record<string, string>>,
  schemas: SchemaChecker,
): boolean {
  return operation.parameters
    .filter((parameter) => parameter.in === 'path')
    .every((parameter) => {
      const value = params[parameter.name];
      if (value === undefined) return false;
      if ((nodeAt(parameter.schema) as { type?: unknown } | undefined)?.type === 'integer') return /^\d+$/.test(value);
      return schemas.check(parameter.schema, value).length === 0;
    });
}
