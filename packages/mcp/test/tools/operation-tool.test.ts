import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { loadContract, readContract } from '../../src/contract/contract';
import { toolNameOf } from '../../src/tools/operation-tool';
import type { ApiRequest, LogbookTool, ToolContext } from '../../src/tools/tool';
import { buildToolCatalog, OPERATIONS_WITHOUT_TOOLS } from '../../src/tools/tool-catalog';

const contract = loadContract();
const tools = buildToolCatalog(contract);

function tool(name: string): LogbookTool {
  const found = tools.get(name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

/** A context that records the requests and answers each with `status` and `body`. */
function recordingContext(status = 200, body: unknown = { data: {} }): { context: ToolContext; sent: ApiRequest[] } {
  const sent: ApiRequest[] = [];
  return {
    sent,
    context: {
      async send(request) {
        sent.push(request);
        return { status, headers: new Headers(), text: body === null ? '' : JSON.stringify(body) };
      },
      actAs: () => undefined,
      fetch: globalThis.fetch,
      apiUrl: 'http://127.0.0.1:4010/rest/v1',
      token: 'sbx_operationtool000000000000001',
      writesAllowed: async () => true,
      conceal: () => undefined,
    },
  };
}

describe('the tools of the contract', () => {
  it('name a tool after every operation of both documents but those set apart with a reason', () => {
    const names = new Set(tools.keys());
    const untooled = contract.operations.filter((operation) => !names.has(toolNameOf(operation.operationId)));
    expect(untooled.map((operation) => operation.operationId).sort()).toEqual(
      Object.keys(OPERATIONS_WITHOUT_TOOLS).sort(),
    );
  });

  it('set apart only operations the contract has', () => {
    const ids = new Set(contract.operations.map((operation) => operation.operationId));
    expect(Object.keys(OPERATIONS_WITHOUT_TOOLS).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('make a tool of an operation added to the contract, with no code for it', () => {
    const openapi = structuredClone(contract.documents['openapi.yaml']) as { paths: Record<string, unknown> };
    openapi.paths['/receipts/{id}/transfer'] = {
      post: {
        operationId: 'transferReceipt',
        summary: 'Transfer a receipt',
        description: 'Moves a receipt to another book.',
        parameters: [{ $ref: '#/components/parameters/ReceiptId' }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', required: ['book'], properties: { book: { type: 'string' } } },
            },
          },
        },
        responses: { '200': { description: 'Moved.' } },
      },
    };
    const grown = buildToolCatalog(readContract({ ...contract.documents, 'openapi.yaml': openapi }));
    const transfer = grown.get('transfer_receipt');
    expect(transfer?.inputSchema).toMatchObject({
      required: ['id', 'book'],
      properties: { id: { type: 'integer' }, book: { type: 'string' } },
    });
  });

  it('carry input schemas that are self-contained JSON Schemas (no $ref) an agent can validate against', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    for (const { name, inputSchema } of tools.values()) {
      expect(JSON.stringify(inputSchema), name).not.toContain('$ref');
      expect(() => ajv.compile(inputSchema), name).not.toThrow();
      expect(inputSchema.type, name).toBe('object');
    }
  });

  it("accept the contract's own examples of each request body as arguments", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    let checked = 0;
    for (const operation of contract.operations) {
      const found = tools.get(toolNameOf(operation.operationId));
      if (found === undefined) continue;
      const validate = ajv.compile(found.inputSchema);
      for (const [name, example] of Object.entries(operation.bodyExamples)) {
        const pathArguments = Object.fromEntries(
          operation.parameters
            .filter((parameter) => parameter.in === 'path')
            .map((parameter) => [
              parameter.name,
              parameter.schema['format'] === 'uuid' ? '0f8e2d4c-6b1a-4c3e-9d5f-7a2b4c6d8e0f' : 1,
            ]),
        );
        const args =
          'body' in (found.inputSchema['properties'] as object)
            ? { ...pathArguments, body: example }
            : { ...pathArguments, ...(example as object) };
        expect(validate(args), `${operation.operationId} example ${name}: ${JSON.stringify(validate.errors)}`).toBe(
          true,
        );
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('state every MCP annotation, from the method and where the contract says otherwise', () => {
    for (const { name, annotations } of tools.values()) {
      expect(Object.keys(annotations).sort(), name).toEqual([
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
        'readOnlyHint',
      ]);
    }
    expect(tool('list_receipts').annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(tool('create_receipt').annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(tool('update_receipt').annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(tool('delete_receipt').annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(tool('reset_account').annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(tool('load_fixtures').annotations).toMatchObject({ destructiveHint: false, idempotentHint: true });
    expect(tool('get_clock').annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(tool('advance_clock').annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
  });
});

describe('a call of an operation tool', () => {
  it('fills the path template, sends the query and the body fields apart', async () => {
    const { context, sent } = recordingContext();
    await tool('update_receipt').call({ id: 12, model: 'EX-9 Compact OR', purchase_amount: 399 }, context);
    await tool('list_receipts').call({ status: 'on_hand', per_page: 25, book: 'Main' }, context);
    expect(sent[0]).toMatchObject({
      method: 'PUT',
      path: '/rest/v1/receipts/12',
      query: [],
      body: { model: 'EX-9 Compact OR', purchase_amount: 399 },
    });
    expect(sent[1]).toMatchObject({ method: 'GET', path: '/rest/v1/receipts', body: undefined });
    expect(Object.fromEntries(sent[1]!.query!)).toEqual({ status: 'on_hand', per_page: '25', book: 'Main' });
  });

  it('sends control calls to /_sandbox, and a call that needs no token without one', async () => {
    const { context, sent } = recordingContext(201, { data: {}, token: 'sbx_new' });
    await tool('advance_clock').call({ seconds: 60 }, context);
    await tool('create_account').call({}, context);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path: '/_sandbox/clock/advance',
      body: { seconds: 60 },
      public: false,
    });
    expect(sent[1]).toMatchObject({ method: 'POST', path: '/_sandbox/accounts', body: {}, public: true });
  });

  it('encodes a path argument so that it stays one segment, dots included', async () => {
    const { context, sent } = recordingContext();
    await tool('get_receipt').call({ id: '../books' }, context);
    await tool('get_delivery').call({ id: 'a/b?c' }, context);
    expect(sent.map((request) => request.path)).toEqual([
      '/rest/v1/receipts/%2E%2E%2Fbooks',
      '/_sandbox/deliveries/a%2Fb%3Fc',
    ]);
  });

  it('refuses an argument the operation does not take, naming those it takes, and sends nothing', async () => {
    const { context, sent } = recordingContext();
    await expect(tool('get_receipt').call({ id: 1, serial: 'x' }, context)).rejects.toThrow(
      '[@fflkit/mcp] get_receipt takes only id; not serial.',
    );
    await expect(tool('create_receipt').call({ serial: 'x' }, context)).rejects.toThrow(
      /takes only book, serial_number, .*; not serial\./,
    );
    expect(sent).toEqual([]);
  });

  it('refuses a call without its path argument', async () => {
    const { context, sent } = recordingContext();
    await expect(tool('dispose_receipt').call({ disposed_to: 'John Q. Example' }, context)).rejects.toThrow(
      '[@fflkit/mcp] dispose_receipt needs id: The receipt',
    );
    expect(sent).toEqual([]);
  });

  it('sends a query argument given as an object as its JSON', async () => {
    const { context, sent } = recordingContext();
    await tool('list_requests').call({ body: { serial_number: 'EXA0012345' }, faulted: false }, context);
    expect(Object.fromEntries(sent[0]!.query!)).toEqual({ body: '{"serial_number":"EXA0012345"}', faulted: 'false' });
  });

  it('answers the JSON the API answered, and marks the credential the call created', async () => {
    const { context } = recordingContext(201, { data: { id: 9 }, secret: 'whsec_abc123' });
    const outcome = await tool('create_webhook').call({ url: 'http://127.0.0.1:3000/hooks', events: ['*'] }, context);
    expect(outcome).toEqual({
      texts: ['{"data":{"id":9},"secret":"whsec_abc123"}'],
      isError: false,
      created: ['whsec_abc123'],
    });
  });

  it("answers a 4xx as a tool error carrying the contract's error body and what to do", async () => {
    const body = {
      message: 'The serial number field is required.',
      errors: { serial_number: ['The serial number field is required.'] },
    };
    const { context } = recordingContext(422, body);
    const outcome = await tool('create_receipt').call({ book: 'Main' }, context);
    expect(outcome.isError).toBe(true);
    expect(outcome.texts[0]).toBe(`POST /rest/v1/receipts answered 422: ${JSON.stringify(body)}`);
    expect(outcome.texts[1]).toMatch(/Correct the arguments named in "errors"/);
    expect(outcome.created).toBeUndefined();
  });

  it('answers a 204 with a sentence, not an empty text', async () => {
    const { context } = recordingContext(204, null);
    const outcome = await tool('delete_receipt').call({ id: 3 }, context);
    expect(outcome).toMatchObject({
      texts: ['DELETE /rest/v1/receipts/3 answered 204 with no content: done.'],
      isError: false,
    });
  });
});

describe('buildToolCatalog(contract, { extraTools })', () => {
  const probe: LogbookTool = {
    name: 'run_conformance',
    title: 'Probe a service',
    description: 'Probes a base URL.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    scope: 'service',
    call: async () => ({ texts: ['ok'], isError: false }),
  };

  it('adds the extra tools after the contract', () => {
    const names = [...buildToolCatalog(contract, { extraTools: [probe] }).keys()];
    expect(names.at(-1)).toBe('run_conformance');
  });

  it('refuses an extra tool whose name is taken', () => {
    expect(() => buildToolCatalog(contract, { extraTools: [{ ...probe, name: 'list_receipts' }] })).toThrow(
      '[@fflkit/mcp] two tools are named list_receipts',
    );
  });
});
