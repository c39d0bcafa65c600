import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// The contract as the tools read it: the two documents that `@fflkit/types` ships as JSON, their
// operations listed with every `$ref` followed, so that each operation's parameters and request
// body come as self-contained JSON Schemas. Nothing here copies a schema: every tool is derived
// from what these documents say at run time.

/** The two documents of the contract, by the names they are published under. */
export type ContractDocumentName = 'openapi.yaml' | 'sandbox.yaml';

/** A JSON Schema, or any part of an OpenAPI document, as parsed JSON. */
export type JsonObject = { [key: string]: unknown };

/** The HTTP methods the contract's operations use. */
export type OperationMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A parameter of an operation, its schema self-contained. */
export interface OperationParameter {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required: boolean;
  readonly description: string | undefined;
  readonly schema: JsonObject;
}

/** One operation of the contract. */
export interface ContractOperation {
  readonly document: ContractDocumentName;
  readonly operationId: string;
  readonly method: OperationMethod;
  /** The path as the document writes it: relative to `/rest/v1` in `openapi.yaml`, absolute in `sandbox.yaml`. */
  readonly path: string;
  /** The path from the server's origin: `/rest/v1/receipts/{id}`, `/_sandbox/clock`. */
  readonly originPath: string;
  readonly summary: string;
  readonly description: string;
  /** The permission a service operation needs (`x-permission`); `undefined` for control calls. */
  readonly permission: string | undefined;
  /** Whether the operation needs no token (`security: []`). */
  readonly public: boolean;
  readonly parameters: readonly OperationParameter[];
  /** The JSON request body, when the operation takes one. */
  readonly body: { readonly required: boolean; readonly schema: JsonObject } | undefined;
  /** The JSON schema of the first 2xx answer's body, when it has one. */
  readonly success: JsonObject | undefined;
  /** The examples of the JSON request body, by name (a single `example` is named `example`). */
  readonly bodyExamples: Readonly<Record<string, unknown>>;
}

/** The contract, loaded once. */
export interface Contract {
  readonly documents: Readonly<Record<ContractDocumentName, JsonObject>>;
  readonly operations: readonly ContractOperation[];
  /** A schema of `components.schemas` of a document, self-contained. */
  schema(document: ContractDocumentName, name: string): JsonObject;
}

const SERVICE_PREFIX = '/rest/v1';
const METHODS: readonly OperationMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];
const DOCUMENTS: readonly ContractDocumentName[] = ['openapi.yaml', 'sandbox.yaml'];

let loaded: Contract | undefined;

/**
 * The contract of `@fflkit/types` (`openapi.json` and `sandbox.json`), read on first use and
 * kept: the documents and their operations, in document order.
 */
export function loadContract(): Contract {
  if (loaded !== undefined) return loaded;
  const require = createRequire(import.meta.url);
  const documents = {
    'openapi.yaml': require('@fflkit/types/openapi.json') as JsonObject,
    'sandbox.yaml': require('@fflkit/types/sandbox.json') as JsonObject,
  };
  loaded = readContract(documents);
  return loaded;
}

/** The files of the contract that `@fflkit/types` ships as they are. */
export type ContractFileName = ContractDocumentName | 'fixtures.schema.json';

/** The text of a file of the contract as `@fflkit/types` ships it (`@fflkit/types/openapi.yaml`). */
export function readContractFile(name: ContractFileName): string {
  return readFileSync(createRequire(import.meta.url).resolve(`@fflkit/types/${name}`), 'utf8');
}

/** The contract of two parsed documents (the tests hand in altered ones). */
export function readContract(documents: Readonly<Record<ContractDocumentName, JsonObject>>): Contract {
  const resolver = new RefResolver(documents);
  const operations: ContractOperation[] = [];
  for (const document of DOCUMENTS) {
    const paths = objectAt(documents[document], 'paths');
    for (const [path, item] of Object.entries(paths)) {
      const pathItem = item as JsonObject;
      for (const method of METHODS) {
        const operation = pathItem[method.toLowerCase()] as JsonObject | undefined;
        if (operation === undefined) continue;
        operations.push(readOperation(resolver, document, method, path, pathItem, operation));
      }
    }
  }
  return {
    documents,
    operations,
    schema: (document, name) => resolver.inline({ $ref: `#/components/schemas/${name}` }, document),
  };
}

function readOperation(
  resolver: RefResolver,
  document: ContractDocumentName,
  method: OperationMethod,
  path: string,
  pathItem: JsonObject,
  operation: JsonObject,
): ContractOperation {
  const operationId = operation['operationId'];
  if (typeof operationId !== 'string') {
    throw new TypeError(`[@fflkit/mcp] ${method} ${path} of ${document} has no operationId: every operation needs one`);
  }
  const declared = [...arrayAt(pathItem, 'parameters'), ...arrayAt(operation, 'parameters')];
  const parameters = declared.flatMap((given): OperationParameter[] => {
    const { value, document: home } = resolver.follow(given as JsonObject, document);
    const where = value['in'];
    // A header (such as the MCP endpoint's session id) belongs to the transport, never to a tool's arguments.
    if (where !== 'path' && where !== 'query') return [];
    return [
      {
        name: String(value['name']),
        in: where,
        required: value['required'] === true,
        description: typeof value['description'] === 'string' ? value['description'] : undefined,
        schema: resolver.inline((value['schema'] ?? {}) as JsonObject, home),
      },
    ];
  });
  const requestBody =
    operation['requestBody'] === undefined
      ? undefined
      : resolver.follow(operation['requestBody'] as JsonObject, document);
  const json = requestBody === undefined ? undefined : jsonContent(requestBody.value);
  const security = operation['security'];
  return {
    document,
    operationId,
    method,
    path,
    originPath: document === 'openapi.yaml' ? `${SERVICE_PREFIX}${path}` : path,
    summary: String(operation['summary'] ?? operationId),
    description: String(operation['description'] ?? ''),
    permission: typeof operation['x-permission'] === 'string' ? operation['x-permission'] : undefined,
    public: Array.isArray(security) && security.length === 0,
    parameters,
    body:
      json === undefined || requestBody === undefined
        ? undefined
        : {
            required: requestBody.value['required'] === true,
            schema: resolver.inline((json['schema'] ?? {}) as JsonObject, requestBody.document),
          },
    success: successSchema(resolver, document, operation),
    bodyExamples: json === undefined ? {} : examplesOf(json),
  };
}

/** The `application/json` media type of a body or an answer, if it has one. */
function jsonContent(holder: JsonObject): JsonObject | undefined {
  const content = holder['content'] as JsonObject | undefined;
  return content?.['application/json'] as JsonObject | undefined;
}

function successSchema(
  resolver: RefResolver,
  document: ContractDocumentName,
  operation: JsonObject,
): JsonObject | undefined {
  const responses = (operation['responses'] ?? {}) as JsonObject;
  const status = Object.keys(responses).find((code) => /^2\d\d$/.test(code));
  if (status === undefined) return undefined;
  const answer = resolver.follow(responses[status] as JsonObject, document);
  const json = jsonContent(answer.value);
  return json?.['schema'] === undefined ? undefined : resolver.inline(json['schema'] as JsonObject, answer.document);
}

function examplesOf(media: JsonObject): Record<string, unknown> {
  if (media['example'] !== undefined) return { example: media['example'] };
  const examples = (media['examples'] ?? {}) as Record<string, JsonObject>;
  return Object.fromEntries(Object.entries(examples).map(([name, example]) => [name, example['value']]));
}

/**
 * Keys of an OpenAPI schema that a tool's input schema leaves out: examples, extensions, and
 * OpenAPI's `discriminator`, which JSON Schema does not know (its `oneOf` says the same).
 */
function isDropped(key: string): boolean {
  return key === 'example' || key === 'examples' || key === 'discriminator' || key.startsWith('x-');
}

/**
 * Follows `$ref`s within and across the two documents (`#/components/...`,
 * `./openapi.yaml#/components/...`), and inlines them into self-contained schemas.
 */
class RefResolver {
  readonly #documents: Readonly<Record<ContractDocumentName, JsonObject>>;

  constructor(documents: Readonly<Record<ContractDocumentName, JsonObject>>) {
    this.#documents = documents;
  }

  /** The object a `$ref` names (itself when it is none), and the document it is in; sibling keys win. */
  follow(given: JsonObject, document: ContractDocumentName): { value: JsonObject; document: ContractDocumentName } {
    const ref = given['$ref'];
    if (typeof ref !== 'string') return { value: given, document };
    const match = /^(?:\.\/([\w.]+))?#\/(.+)$/.exec(ref);
    const target = (match?.[1] ?? document) as ContractDocumentName;
    if (match === null || !DOCUMENTS.includes(target)) {
      throw new TypeError(
        `[@fflkit/mcp] cannot follow the $ref ${ref} of ${document}: the contract refers only within its two documents`,
      );
    }
    let value: unknown = this.#documents[target];
    for (const part of match[2]!.split('/'))
      value = (value as JsonObject | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (typeof value !== 'object' || value === null) {
      throw new TypeError(`[@fflkit/mcp] the $ref ${ref} of ${document} names nothing in ${target}`);
    }
    const { $ref: _followed, ...siblings } = given;
    const followed = this.follow(value as JsonObject, target);
    return { value: { ...followed.value, ...siblings }, document: followed.document };
  }

  /** A schema with every `$ref` inlined, examples and extensions left out. */
  inline(schema: JsonObject, document: ContractDocumentName, trail: readonly string[] = []): JsonObject {
    const ref = schema['$ref'];
    if (typeof ref === 'string') {
      const key = `${document}${ref.startsWith('#') ? '' : ' '}${ref}`;
      if (trail.includes(key)) {
        throw new TypeError(
          `[@fflkit/mcp] the schema ${ref} refers to itself: a tool's input schema cannot be inlined from it`,
        );
      }
      const followed = this.follow(schema, document);
      return this.inline(followed.value, followed.document, [...trail, key]);
    }
    const result: JsonObject = {};
    for (const [key, value] of Object.entries(schema)) {
      if (isDropped(key)) continue;
      result[key] = this.#inlineValue(key, value, document, trail);
    }
    return result;
  }

  #inlineValue(key: string, value: unknown, document: ContractDocumentName, trail: readonly string[]): unknown {
    if (Array.isArray(value)) {
      return value.map((item) =>
        typeof item === 'object' && item !== null ? this.inline(item as JsonObject, document, trail) : item,
      );
    }
    if (typeof value !== 'object' || value === null) return value;
    // `properties` maps names to schemas: the names are not keywords, so none of them is dropped.
    if (key === 'properties' || key === 'patternProperties' || key === '$defs') {
      return Object.fromEntries(
        Object.entries(value as JsonObject).map(([name, item]) => [
          name,
          this.inline(item as JsonObject, document, trail),
        ]),
      );
    }
    return this.inline(value as JsonObject, document, trail);
  }
}

function objectAt(holder: JsonObject, key: string): JsonObject {
  const value = holder[key];
  return typeof value === 'object' && value !== null ? (value as JsonObject) : {};
}

function arrayAt(holder: JsonObject, key: string): unknown[] {
  const value = holder[key];
  return Array.isArray(value) ? value : [];
}
