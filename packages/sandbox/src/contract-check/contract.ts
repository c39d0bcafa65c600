import openapi from '@fflkit/types/openapi.json';

// The service's contract at run time, read from its JSON form (`@fflkit/types/openapi.json`):
// the operations with their path patterns, parameters, request bodies and answers, the webhook
// deliveries, and where in the document each node sits, so that a failed check can name the
// contract location (and from it the choice) that it contradicts. Every `$ref` is followed here,
// once, when the module loads.

/** A JSON value as the contract holds it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The parsed contract document. */
export const CONTRACT_DOCUMENT = openapi as unknown as JsonObject;

const internals = {
  locations: indexLocations(),
  routes: [] as Array<{ operation: ContractOperation; pattern: RegExp; names: string[] }>,
};

/** A parameter of an operation or a delivery, its `$ref` followed. */
export interface ContractParameter {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header';
  readonly required: boolean;
  /** Where the parameter is defined: `#/components/parameters/PerPage`. */
  readonly location: string;
  /** Where its schema is: the pointer a validator compiles. */
  readonly schema: string;
}

/** A header an answer declares, its `$ref` followed. */
export interface ContractHeader {
  /** In lower case, as Node names headers. */
  readonly name: string;
  /** Where the header is defined: `#/components/headers/X-RateLimit-Limit`. */
  readonly location: string;
  readonly schema: string;
  /** The schema's type, to read the header's text as a number where it is one. */
  readonly type: string | undefined;
}

/** An answer an operation documents for a status. */
export interface ContractAnswer {
  readonly location: string;
  readonly headers: readonly ContractHeader[];
  /** The pointer of the JSON body's schema, or `undefined` for an answer without a body. */
  readonly body: string | undefined;
}

/** An operation of the service API. */
export interface ContractOperation {
  /** The operationId: `listReceipts`. */
  readonly id: string;
  /** In capitals: `GET`. */
  readonly method: string;
  /** The path template after the base URL: `/receipts/{id}`. */
  readonly template: string;
  /** `#/paths/~1receipts~1{id}/get`. */
  readonly location: string;
  readonly parameters: readonly ContractParameter[];
  /** The pointer of the JSON request body's schema, or `undefined` for an operation without one. */
  readonly body: string | undefined;
  /** The documented answers by status (`200`) or class (`2XX`). */
  readonly answers: ReadonlyMap<string, ContractAnswer>;
}

/** A webhook delivery of an event. */
export interface ContractDelivery {
  readonly event: string;
  readonly location: string;
  readonly headers: readonly ContractParameter[];
  /** The pointer of the delivery body's schema. */
  readonly body: string;
}

/** The base every pointer of the document is compiled under. */
export const CONTRACT_BASE = 'https://contract.fflkit.dev/openapi.json';

/** The node at `pointer` (`#/components/schemas/Receipt`), or `undefined`. */
export function nodeAt(pointer: string): Json | undefined {
  let node: Json | undefined = CONTRACT_DOCUMENT;
  for (const part of pointer.replace(/^#\/?/, '').split('/')) {
    if (part === '') continue;
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as JsonObject)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

/** The pointer of a node of the document, by identity: how a validator's error finds its place. */
export function locationOf(node: unknown): string | undefined {
  return internals.locations.get(node as object);
}

/** Every operation, in the document's order. */
export const CONTRACT_OPERATIONS: readonly ContractOperation[] = readOperations();

/** Every webhook delivery, by event name. */
export const CONTRACT_DELIVERIES: ReadonlyMap<string, ContractDelivery> = readDeliveries();

/** The operation a method and path (after the base URL, without query) address, with its path parameters. */
export function findOperation(
  method: string,
  path: string,
): { readonly operation: ContractOperation; readonly params: Readonly<Record<string, string>> } | undefined {
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  for (const route of internals.routes) {
    if (route.operation.method !== verb) continue;
    const match = route.pattern.exec(path);
    if (match === null) continue;
    const params: Record<string, string> = {};
    route.names.forEach((name, index) => {
      params[name] = decodeURIComponent(match[index + 1] ?? '');
    });
    return { operation: route.operation, params };
  }
  return undefined;
}

/** Escapes one segment of a JSON pointer. */
export function pointerSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function indexLocations(): WeakMap<object, string> {
  const locations = new WeakMap<object, string>();
  const walk = (node: Json, pointer: string): void => {
    if (typeof node !== 'object' || node === null) return;
    locations.set(node, pointer);
    for (const [key, value] of Object.entries(node)) walk(value, `${pointer}/${pointerSegment(key)}`);
  };
  walk(CONTRACT_DOCUMENT, '#');
  return locations;
}

/** The node a `$ref` names, and its pointer; a node without `$ref` is itself. */
function follow(node: Json | undefined, pointer: string): { node: JsonObject; pointer: string } {
  let current = node;
  let at = pointer;
  for (let hops = 0; typeof current === 'object' && current !== null && !Array.isArray(current); hops += 1) {
    const ref = (current as JsonObject)['$ref'];
    if (typeof ref !== 'string') return { node: current as JsonObject, pointer: at };
    if (!ref.startsWith('#/') || hops > 10) break;
    at = ref;
    current = nodeAt(ref);
  }
  throw new Error(`[@fflkit/sandbox] the contract has no object at ${at}: reinstall @fflkit/types`);
}

function readParameters(list: Json | undefined, at: string): ContractParameter[] {
  if (!Array.isArray(list)) return [];
  return list.map((entry, index) => {
    const { node, pointer } = follow(entry, `${at}/${index}`);
    return {
      name: String(node['name']),
      in: node['in'] as ContractParameter['in'],
      required: node['required'] === true,
      location: pointer,
      schema: `${pointer}/schema`,
    };
  });
}

function jsonSchemaOf(content: Json | undefined, at: string): string | undefined {
  if (typeof content !== 'object' || content === null || !('application/json' in content)) return undefined;
  return `${at}/content/${pointerSegment('application/json')}/schema`;
}

function readAnswer(entry: Json | undefined, at: string): ContractAnswer {
  const { node, pointer } = follow(entry, at);
  const headers = Object.entries((node['headers'] ?? {}) as JsonObject).map(([name, header]) => {
    const followed = follow(header, `${pointer}/headers/${pointerSegment(name)}`);
    const schema = followed.node['schema'] as JsonObject | undefined;
    return {
      name: name.toLowerCase(),
      location: followed.pointer,
      schema: `${followed.pointer}/schema`,
      type: typeof schema?.['type'] === 'string' ? schema['type'] : undefined,
    };
  });
  return { location: pointer, headers, body: jsonSchemaOf(node['content'], pointer) };
}

function readOperations(): ContractOperation[] {
  const operations: ContractOperation[] = [];
  const paths = (CONTRACT_DOCUMENT['paths'] ?? {}) as JsonObject;
  for (const [template, item] of Object.entries(paths)) {
    const itemAt = `#/paths/${pointerSegment(template)}`;
    const shared = readParameters((item as JsonObject)['parameters'], `${itemAt}/parameters`);
    for (const [method, value] of Object.entries(item as JsonObject)) {
      if (typeof value !== 'object' || value === null || !('operationId' in value)) continue;
      const operation = value as JsonObject;
      const location = `${itemAt}/${method}`;
      const own = readParameters(operation['parameters'], `${location}/parameters`);
      const requestBody = operation['requestBody'];
      const body =
        requestBody === undefined
          ? undefined
          : (() => {
              const followed = follow(requestBody, `${location}/requestBody`);
              return jsonSchemaOf(followed.node['content'], followed.pointer);
            })();
      const answers = new Map<string, ContractAnswer>();
      for (const [status, answer] of Object.entries((operation['responses'] ?? {}) as JsonObject)) {
        answers.set(status.toUpperCase(), readAnswer(answer, `${location}/responses/${pointerSegment(status)}`));
      }
      const entry: ContractOperation = {
        id: String(operation['operationId']),
        method: method.toUpperCase(),
        template,
        location,
        parameters: [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own],
        body,
        answers,
      };
      operations.push(entry);
      const names: string[] = [];
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      internals.routes.push({ operation: entry, pattern: new RegExp(`^${source}$`), names });
    }
  }
  return operations;
}

function readDeliveries(): Map<string, ContractDelivery> {
  const deliveries = new Map<string, ContractDelivery>();
  for (const [event, item] of Object.entries((CONTRACT_DOCUMENT['webhooks'] ?? {}) as JsonObject)) {
    const location = `#/webhooks/${pointerSegment(event)}/post`;
    const operation = (item as JsonObject)['post'] as JsonObject;
    const followed = follow(operation['requestBody'], `${location}/requestBody`);
    const body = jsonSchemaOf(followed.node['content'], followed.pointer);
    if (body === undefined) throw new Error(`[@fflkit/sandbox] the contract's ${event} delivery has no JSON body`);
    deliveries.set(event, {
      event,
      location,
      headers: readParameters(operation['parameters'], `${location}/parameters`).filter((p) => p.in === 'header'),
      body,
    });
  }
  return deliveries;
}
