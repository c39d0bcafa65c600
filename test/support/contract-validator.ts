import { readFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

type Json = Record<string, any>;

const BASE = 'https://contract.fflkit.test/';
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
   * Validates one answer of an operation: the status must be documented; the answer's
   * Content-Type, when it carries one, must be a media type the response declares (one that is
   * not JSON must be carried, and its body is text); the body must match that media type's
   * schema; and every documented header that the answer carries must match its schema (required
   * headers must be present). Returns the list of problems, empty when valid.
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
    const declared = this.#resolve(
      entry.document,
      responses[key],
      `${BASE}${entry.document}#${entry.pointer}/responses/${key}`,
    );
    const headers = normaliseHeaders(response.headers);
    const content = declared['content'] as Json | undefined;
    const hasBody = response.body !== undefined && response.body !== '';
    if (content === undefined) {
      if (hasBody) problems.push(`${operationId} ${status} has a body the contract does not declare`);
    } else {
      const sent = headers.get('content-type');
      // An answer without a Content-Type is JSON: the core hands its answers to a transport,
      // which sets the type; a type other than JSON is always carried.
      const mediaType =
        sent === undefined
          ? JSON_MEDIA_TYPE in content
            ? JSON_MEDIA_TYPE
            : undefined
          : declaredMediaType(Object.keys(content), sent);
      if (mediaType === undefined) {
        problems.push(
          `${operationId} ${status} answered Content-Type ${sent ?? '(none)'}; the contract declares ${Object.keys(content).join(', ')}`,
        );
      } else if (mediaType !== JSON_MEDIA_TYPE && typeof response.body !== 'string') {
        problems.push(`${operationId} ${status} answered ${mediaType} without a text body`);
      } else {
        const validate = this.#validator(
          `${declared.ref}/content/${encodeURIComponent(escapePointer(mediaType))}/schema`,
        );
        if (!validate(response.body)) {
          problems.push(
            ...(validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`),
          );
        }
      }
    }
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

const JSON_MEDIA_TYPE = 'application/json';

/**
 * The declared media type that a Content-Type answers: the same type and subtype, and every
 * parameter the declaration names with the same value (`application/json` declares any
 * charset; `text/csv; charset=utf-8` requires that one).
 */
function declaredMediaType(declared: readonly string[], sent: string): string | undefined {
  const answer = parseMediaType(sent);
  return declared.find((candidate) => {
    const wanted = parseMediaType(candidate);
    if (wanted.essence !== answer.essence) return false;
    return [...wanted.parameters].every(([name, value]) => answer.parameters.get(name) === value);
  });
}

function parseMediaType(text: string): { essence: string; parameters: Map<string, string> } {
  const [essence = '', ...parameters] = text.split(';').map((part) => part.trim().toLowerCase());
  return {
    essence,
    parameters: new Map(
      parameters
        .filter((part) => part.includes('='))
        .map((part) => {
          const equals = part.indexOf('=');
          return [
            part.slice(0, equals).trim(),
            part
              .slice(equals + 1)
              .trim()
              .replace(/^"(.*)"$/, '$1'),
          ] as const;
        }),
    ),
  };
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function normaliseHeaders(headers: Headers | Record<string, string>): Map<string, string> {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  return new Map(entries.map(([name, value]) => [name.toLowerCase(), String(value)]));
}
