import type { ContractOperation, JsonObject } from '../contract/contract';
import { annotationsOf } from './annotations';
import { describeOperation, withPlainDescriptions } from './tool-description';
import { type ApiRequest, type LogbookTool, outcomeOf, ToolCallError, type ToolContext } from './tool';

// One operation of the contract as one tool: its name from the operationId, its description
// from the operation's summary and description, its input schema from the operation's
// parameters and request body, and its call an HTTP request built from the method, the path
// template, the query and the body.

/** The tool name of an operationId: `createReceipt` → `create_receipt`, `putE4473` → `put_e4473`. */
export function toolNameOf(operationId: string): string {
  return operationId.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** Where the body's fields go among the arguments. */
type BodyArguments =
  /** No body. */
  | { readonly kind: 'none' }
  /** The body's fields are arguments of their own, beside the parameters. */
  | { readonly kind: 'fields'; readonly names: readonly string[] }
  /** The body is the argument `body` (a body that is not a plain object of fields, or whose fields clash with a parameter). */
  | { readonly kind: 'body' };

/** What an operation tool does after a successful call, for the session: `create_account` acts as the new account. */
export type AfterSuccess = (answer: unknown, context: ToolContext) => string | undefined;

/**
 * The tool of a contract operation. `afterSuccess` runs after a 2xx with the parsed answer and
 * may answer a note for the agent.
 */
export function operationTool(operation: ContractOperation, afterSuccess?: AfterSuccess): LogbookTool {
  const body = bodyArgumentsOf(operation);
  const inputSchema = inputSchemaOf(operation, body);
  const credentials = createdCredentialFields(operation);
  return {
    name: toolNameOf(operation.operationId),
    title: operation.summary,
    description: describeOperation(operation),
    inputSchema,
    annotations: annotationsOf(operation),
    scope: operation.document === 'openapi.yaml' ? 'service' : 'sandbox',
    async call(args, context) {
      const request = requestOf(operation, body, args);
      const answer = await context.send(request);
      // Only an answer that may hold a credential, or that a note reads, is parsed: a page is relayed as text.
      const read = credentials.length > 0 || afterSuccess !== undefined;
      const parsed = read && answer.status >= 200 && answer.status < 300 ? parseJson(answer.text) : undefined;
      const created = credentials.flatMap((field) => {
        const value = (parsed as Record<string, unknown> | undefined)?.[field];
        return typeof value === 'string' ? [value] : [];
      });
      const outcome = outcomeOf(request, answer, created);
      const note = parsed !== undefined && afterSuccess !== undefined ? afterSuccess(parsed, context) : undefined;
      return note === undefined ? outcome : { ...outcome, texts: [...outcome.texts, note] };
    },
  };
}

function bodyArgumentsOf(operation: ContractOperation): BodyArguments {
  if (operation.body === undefined) return { kind: 'none' };
  const { schema } = operation.body;
  const properties = schema['properties'] as JsonObject | undefined;
  const composed = ['oneOf', 'anyOf', 'allOf', 'not', 'if'].some((keyword) => keyword in schema);
  const parameterNames = new Set(operation.parameters.map((parameter) => parameter.name));
  if (schema['type'] !== 'object' || properties === undefined || composed) return { kind: 'body' };
  const names = Object.keys(properties);
  if (names.some((name) => parameterNames.has(name) || name === 'body')) return { kind: 'body' };
  return { kind: 'fields', names };
}

/**
 * The input schema: the path and query parameters, then the body's fields (or `body`), each
 * described as the contract describes it; the body's own description (its rules) as the
 * schema's description. Unknown arguments are refused, so a misspelt field is not dropped.
 */
function inputSchemaOf(operation: ContractOperation, body: BodyArguments): JsonObject & { type: 'object' } {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const parameter of operation.parameters) {
    properties[parameter.name] =
      parameter.description === undefined
        ? parameter.schema
        : { ...parameter.schema, description: parameter.description };
    if (parameter.required) required.push(parameter.name);
  }
  const schema: JsonObject & { type: 'object' } = { type: 'object', properties };
  if (operation.body !== undefined) {
    const bodySchema = operation.body.schema;
    if (body.kind === 'fields') {
      Object.assign(properties, bodySchema['properties']);
      if (operation.body.required) required.push(...((bodySchema['required'] as string[] | undefined) ?? []));
    } else if (body.kind === 'body') {
      properties['body'] = bodySchema;
      if (operation.body.required) required.push('body');
    }
    if (typeof bodySchema['description'] === 'string' && body.kind === 'fields') {
      schema['description'] = bodySchema['description'];
    }
  }
  if (required.length > 0) schema['required'] = required;
  schema['additionalProperties'] = false;
  return withPlainDescriptions(schema, operation.document);
}

/**
 * The fields of a success answer that hold a credential the call made (`token` of
 * `POST /_sandbox/accounts`, `secret` of `POST /webhooks`), as the contract's answer schema names them.
 */
function createdCredentialFields(operation: ContractOperation): string[] {
  const properties = operation.success?.['properties'] as JsonObject | undefined;
  return ['token', 'secret'].filter((field) => properties?.[field] !== undefined);
}

/** The request of a call: refuses what the contract cannot take, saying what it takes. */
function requestOf(
  operation: ContractOperation,
  body: BodyArguments,
  args: Readonly<Record<string, unknown>>,
): ApiRequest {
  const known = new Set([
    ...operation.parameters.map((parameter) => parameter.name),
    ...(body.kind === 'fields' ? body.names : body.kind === 'body' ? ['body'] : []),
  ]);
  const unknown = Object.keys(args).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const takes = known.size === 0 ? 'no arguments' : `only ${[...known].join(', ')}`;
    throw new ToolCallError(`${toolNameOf(operation.operationId)} takes ${takes}; not ${unknown.join(', ')}.`);
  }
  let path = operation.originPath;
  const query: [string, string][] = [];
  for (const parameter of operation.parameters) {
    const value = args[parameter.name];
    if (value === undefined || value === null) {
      if (parameter.required) {
        throw new ToolCallError(
          `${toolNameOf(operation.operationId)} needs ${parameter.name}: ${parameter.description ?? 'see its schema'}`,
        );
      }
      continue;
    }
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    // Dots too: a segment `..` must reach the server as itself, not be resolved away by URL parsing.
    if (parameter.in === 'path')
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(text).replace(/\./g, '%2E'));
    else query.push([parameter.name, text]);
  }
  return {
    method: operation.method,
    path,
    query,
    body: bodyOf(body, args),
    public: operation.public,
  };
}

function bodyOf(body: BodyArguments, args: Readonly<Record<string, unknown>>): unknown {
  if (body.kind === 'none') return undefined;
  if (body.kind === 'body') return args['body'] ?? {};
  return Object.fromEntries(body.names.filter((name) => args[name] !== undefined).map((name) => [name, args[name]]));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
