import { readFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

type Json = Record<string, any>;

const BASE = 'https://contract.boundbook.test/';
const DOCUMENTS = ['openapi.yaml', 'sandbox.yaml'] as const;
type DocumentName = (typeof DOCUMENTS)[number];

/** One answer to check: the operation it answers, and what came back. */
export interface ObservedResponse {
  status: number;
  headers: Headers | Record<string, string>;
  body?: unknown;
}

/**
 * Checks answers against `openapi/openapi.yaml` and `openapi/sandbox.yaml` with a JSON Schema
 * validator (Ajv, draft 2020-12, the dialect of OpenAPI 3.1). Nothing is copied from the
 * contract: every schema is read from the documents and resolved through their own `$ref`s.
 * It also records which (operation, status) pairs were seen, so a suite can prove that it
 * exercised every documented answer.
 */
export class ContractValidator {
  readonly #ajv: Ajv2020;
  readonly #documents = new Map<DocumentName, Json>();
  readonly #operations = new Map<string, { document: DocumentName; pointer: string; operation: Json }>();
  readonly #validators = new Map<string, ValidateFunction>();
  readonly seen = new Set<string>();

  constructor(openapiDir: URL) {
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: true });
    addFormats(this.#ajv);
    for (const name of DOCUMENTS) {
      const document = parse(readFileSync(new URL(name, openapiDir), 'utf8')) as Json;
      this.#documents.set(name, document);
      this.#ajv.addSchema(document, BASE + name);
      for (const [path, item] of Object.entries<Json>(document['paths'] ?? {})) {
        for (const [method, operation] of Object.entries<Json>(item)) {
          if (typeof operation !== 'object' || !operation['operationId']) continue;
          const pointer = `/paths/${escapePointer(path)}/${method}`;
          this.#operations.set(operation['operationId'], { document: name, pointer, operation });
        }
      }
    }
  }

  /**
   * The operation a request addresses, or `undefined` when the contract has none: `path` is
   * the path from the origin (`/rest/v1/receipts/3`, `/_sandbox/clock`).
   */
  operationFor(method: string, path: string): string | undefined {
    for (const [operationId, { document, pointer }] of this.#operations) {
      const [, , template, verb] = pointer.split('/');
      if (verb !== method.toLowerCase()) continue;
      const prefix = document === 'openapi.yaml' ? '/rest/v1' : '';
      const pattern = (prefix + template!.replaceAll('~1', '/').replaceAll('~0', '~')).replace(/\{[^}]+\}/g, '[^/]+');
      if (new RegExp(`^${pattern}$`).test(path)) return operationId;
    }
    return undefined;
  }

  /** Every `operationId status` pair the documents declare, such as `getReceipt 404`. */
  documentedPairs(): string[] {
    const pairs: string[] = [];
    for (const [operationId, { operation }] of this.#operations) {
      for (const status of Object.keys(operation['responses'])) pairs.push(`${operationId} ${status}`);
    }
    return pairs.sort();
  }

  /**
   * Validates one answer of an operation: the status must be documented, the body must match
   * the response's schema, and every documented header that the answer carries must match its
   * schema (required headers must be present). Returns the list of problems, empty when valid.
   */
  check(operationId: string, response: ObservedResponse): string[] {
    const entry = this.#operations.get(operationId);
    if (!entry) return [`the contract has no operation ${operationId}`];
    const status = String(response.status);
    const responses = entry.operation['responses'] as Json;
    const key = status in responses ? status : `${status[0]}XX` in responses ? `${status[0]}XX` : undefined;
    if (key === undefined) return [`${operationId} does not document status ${status}`];
    this.seen.add(`${operationId} ${key}`);

    const problems: string[] = [];
    const declared = this.#resolve(entry.document, responses[key], `${BASE}${entry.document}#${entry.pointer}/responses/${key}`);
    if (!declared['content']?.['application/json']) {
      if (response.body !== undefined && response.body !== '') problems.push(`${operationId} ${status} has a body the contract does not declare`);
    } else {
      const validate = this.#validator(`${declared.ref}/content/application~1json/schema`);
      if (!validate(response.body)) {
        problems.push(...(validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`));
      }
    }
    const headers = normaliseHeaders(response.headers);
    for (const [name, header] of Object.entries<Json>(declared['headers'] ?? {})) {
      const resolved = this.#resolve(declared.document, header, `${declared.ref}/headers/${escapePointer(name)}`);
      const value = headers.get(name.toLowerCase());
      if (value === undefined) {
        if (resolved['required']) problems.push(`header ${name} is required`);
        continue;
      }
      const validate = this.#validator(`${resolved.ref}/schema`);
      const type = resolved['schema']?.['type'];
      const typed = type === 'integer' || type === 'number' ? Number(value) : value;
      if (!validate(typed)) problems.push(`header ${name}: ${JSON.stringify(value)} ${validate.errors?.[0]?.message}`);
    }
    return problems;
  }

  #resolve(document: DocumentName, node: Json, ref: string): Json & { ref: string; document: DocumentName } {
    if (typeof node['$ref'] !== 'string') return { ...node, ref, document };
    const [file, fragment = ''] = node['$ref'].split('#');
    const target: DocumentName = file ? (file.replace('./', '') as DocumentName) : document;
    let value: any = this.#documents.get(target);
    for (const part of fragment.split('/').slice(1)) value = value[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    return this.#resolve(target, value, `${BASE}${target}#${fragment}`);
  }

  #validator(ref: string): ValidateFunction {
    let validate = this.#validators.get(ref);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: ref });
      this.#validators.set(ref, validate);
    }
    return validate;
  }
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function normaliseHeaders(headers: Headers | Record<string, string>): Map<string, string> {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  return new Map(entries.map(([name, value]) => [name.toLowerCase(), String(value)]));
}
