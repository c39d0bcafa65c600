import { OPERATIONS_WITHOUT_TOOLS } from '@fflkit/mcp';
import { type RunningSandbox, startSandbox } from '@fflkit/sandbox';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractValidator } from '../support/contract-validator';
import { answerOf, inMemoryClient, startReceiver, textsOf } from './mcp-clients';

// Every tool of the server, run against a started sandbox in one account's life, in an order
// where each finds what it needs: the answer of each is checked against the contract (the JSON
// the API answered), and the list of steps must name every tool the server lists.

const contract = new ContractValidator(new URL('../../openapi/', import.meta.url));

/** What the steps learn from each other. */
interface State {
  today: string;
  receipt: number;
  webhook: number;
  delivery: string;
  fault: number;
  token: number;
  secret: string;
  [key: string]: unknown;
}

interface Step {
  readonly tool: string;
  /** The operation whose documented answer the tool's answer must match; none for a workflow tool or a scrubbed answer. */
  readonly operation?: string;
  readonly args: (state: State) => Record<string, unknown>;
  readonly learn?: (answer: never, state: State) => void;
}

const RECEIPT = {
  book: 'Main',
  serial_number: 'EXA0012345',
  manufacturer: 'Example Arms Co.',
  model: 'EX-9 Compact',
  type: 'Pistol',
  caliber: '9mm Luger',
  received_from: 'Example Firearms Wholesale LLC',
  ffl_license: '9-99-999-01-6A-00001',
};

function steps(receiverUrl: string): Step[] {
  return [
    {
      tool: 'create_account',
      operation: 'createAccount',
      args: () => ({ name: 'Every tool', books: ['Consignment'] }),
    },
    {
      tool: 'get_clock',
      operation: 'getClock',
      args: () => ({}),
      learn: (answer: { data: { now: string } }, state) => {
        state.today = answer.data.now.slice(0, 10);
      },
    },
    { tool: 'advance_clock', operation: 'advanceClock', args: () => ({ seconds: 60 }) },
    { tool: 'list_books', operation: 'listBooks', args: () => ({}) },
    { tool: 'create_book', operation: 'createBook', args: () => ({ name: 'Pawn' }) },
    {
      tool: 'create_receipt',
      operation: 'createReceipt',
      args: (state) => ({ ...RECEIPT, receipt_date: state.today, purchase_amount: 389.5 }),
      learn: (answer: { data: { id: number } }, state) => {
        state.receipt = answer.data.id;
      },
    },
    { tool: 'get_receipt', operation: 'getReceipt', args: (state) => ({ id: state.receipt }) },
    {
      tool: 'update_receipt',
      operation: 'updateReceipt',
      args: (state) => ({ id: state.receipt, purchase_amount: 399 }),
    },
    { tool: 'list_receipts', operation: 'listReceipts', args: () => ({ status: 'on_hand', per_page: 25 }) },
    { tool: 'list_inventory', operation: 'listInventory', args: () => ({ book: 'Main' }) },
    { tool: 'search_receipts', operation: 'searchReceipts', args: () => ({ q: 'EXA001', field: 'serial_number' }) },
    { tool: 'get_receipt_audit', operation: 'getReceiptAudit', args: (state) => ({ id: state.receipt }) },
    {
      tool: 'attach_document',
      operation: 'attachDocument',
      args: (state) => ({ id: state.receipt, name: 'bill-of-sale.pdf', mime_type: 'application/pdf', size: 48213 }),
    },
    {
      tool: 'put_e4473',
      operation: 'putE4473',
      args: (state) => ({
        id: state.receipt,
        form_4473_serial: '2025-000123',
        transferee_name: 'John Q. Example',
        nics_transaction_number: '100EXAMPLE01',
        nics_result: 'proceed',
        completed_at: `${state.today}T09:00:00Z`,
      }),
    },
    {
      tool: 'create_webhook',
      operation: 'createWebhook',
      args: () => ({ url: receiverUrl, events: ['*'] }),
      learn: (answer: { data: { id: number }; secret: string }, state) => {
        state.webhook = answer.data.id;
        state.secret = answer.secret;
      },
    },
    {
      tool: 'check_receiver',
      operation: 'checkReceiver',
      args: (state) => ({ url: receiverUrl, secret: state.secret }),
      learn: (answer: { data: { checks: { name: string }[] } }) => {
        expect(answer.data.checks.map((check) => check.name)).toContain('forged_signature');
      },
    },
    { tool: 'list_webhooks', operation: 'listWebhooks', args: () => ({}) },
    { tool: 'list_webhook_states', operation: 'listWebhookStates', args: () => ({}) },
    {
      tool: 'ping_webhook',
      operation: 'pingWebhook',
      args: (state) => ({ id: state.webhook }),
      learn: (answer: { data: { id: string; attempts: unknown[] } }, state) => {
        state.delivery = answer.data.id;
        expect(answer.data.attempts).toHaveLength(1);
      },
    },
    { tool: 'list_deliveries', operation: 'listDeliveries', args: (state) => ({ webhook_id: state.webhook }) },
    { tool: 'get_delivery', operation: 'getDelivery', args: (state) => ({ id: state.delivery }) },
    { tool: 'redeliver_delivery', operation: 'redeliverDelivery', args: (state) => ({ id: state.delivery }) },
    {
      tool: 'put_webhook_chaos',
      operation: 'putWebhookChaos',
      args: (state) => ({ id: state.webhook, duplicate: 0.5, seed: 7 }),
    },
    { tool: 'delete_webhook_chaos', operation: 'deleteWebhookChaos', args: (state) => ({ id: state.webhook }) },
    { tool: 'enable_webhook', operation: 'enableWebhook', args: (state) => ({ id: state.webhook }) },
    {
      tool: 'dispose_receipt',
      operation: 'disposeReceipt',
      args: (state) => ({
        id: state.receipt,
        disposition_date: state.today,
        disposed_to: 'John Q. Example',
        form_4473_serial: '2025-000124',
      }),
    },
    {
      tool: 'trigger_event',
      args: () => ({ event: 'receipt.created' }),
      learn: (answer: { receipt: { serial_number: string }; deliveries: unknown[] }) => {
        expect(answer.receipt.serial_number).toMatch(/^TRIGGER-/);
        expect(answer.deliveries).toHaveLength(1);
      },
    },
    { tool: 'export_receipts', operation: 'exportReceipts', args: () => ({ book: 'Main' }) },
    { tool: 'list_requests', operation: 'listRequests', args: () => ({ operation: 'createReceipt' }) },
    {
      tool: 'create_fault',
      operation: 'createFault',
      args: () => ({ operation: 'listBooks', action: 'status', status: 503, times: 1 }),
      learn: (answer: { data: { id: number } }, state) => {
        state.fault = answer.data.id;
      },
    },
    { tool: 'list_faults', operation: 'listFaults', args: () => ({}) },
    { tool: 'delete_fault', operation: 'deleteFault', args: (state) => ({ id: state.fault }) },
    { tool: 'clear_faults', operation: 'clearFaults', args: () => ({}) },
    {
      tool: 'create_token',
      operation: 'createToken',
      args: () => ({ permissions: ['read'], name: 'Read only' }),
      learn: (answer: { data: { id: number } }, state) => {
        state.token = answer.data.id;
      },
    },
    { tool: 'list_tokens', operation: 'listTokens', args: () => ({}) },
    { tool: 'revoke_token', operation: 'revokeToken', args: (state) => ({ id: state.token }) },
    // Its answer holds the account's token and its endpoint's secret, scrubbed: no longer the contract's shape.
    { tool: 'export_fixtures', args: () => ({}) },
    {
      tool: 'load_fixtures',
      operation: 'loadFixtures',
      args: () => ({ accounts: [{ name: 'Fixed', tokens: [{ token: 'sbx_everytool000000000000000001' }] }] }),
    },
    { tool: 'delete_receipt', operation: 'deleteReceipt', args: (state) => ({ id: state.receipt }) },
    { tool: 'delete_webhook', operation: 'deleteWebhook', args: (state) => ({ id: state.webhook }) },
    { tool: 'reset_account', operation: 'resetAccount', args: () => ({}) },
    { tool: 'delete_account', operation: 'deleteAccount', args: () => ({}) },
  ];
}

/** The status an operation answers a success with, as the contract documents it. */
function successStatus(operation: string): number {
  const pair = contract.documentedPairs().find((each) => each.startsWith(`${operation} 2`));
  return Number(pair?.split(' ')[1]);
}

describe('every tool, against a started sandbox', () => {
  let sandbox: RunningSandbox;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let client: Client;

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: 0 });
    receiver = await startReceiver();
    client = await inMemoryClient({ baseUrl: sandbox.apiUrl });
  });

  afterAll(async () => {
    await client?.close();
    await sandbox?.stop();
    await receiver?.stop();
  });

  it('has a step for every tool listed, and a tool for every operation of the contract but those set apart', async () => {
    const listed = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(
      steps('')
        .map((step) => step.tool)
        .sort(),
    ).toEqual(listed);
    const operations = contract.documentedPairs().map((pair) => pair.split(' ')[0]!);
    const untooled = [...new Set(operations)].filter(
      (operation) => !listed.includes(operation.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()),
    );
    expect(untooled.sort()).toEqual(Object.keys(OPERATIONS_WITHOUT_TOOLS).sort());
  });

  it('runs each tool, each answering what the contract documents', { timeout: 30_000 }, async () => {
    const state = {} as State;
    for (const step of steps(receiver.url)) {
      const result = await client.callTool({ name: step.tool, arguments: step.args(state) });
      const [text] = textsOf(result);
      expect(result.isError, `${step.tool}: ${textsOf(result).join(' ')}`).toBe(false);
      const body = step.tool === 'export_receipts' ? text : text?.startsWith('{') ? JSON.parse(text) : undefined;
      if (step.operation !== undefined) {
        const headers =
          step.tool === 'export_receipts'
            ? {
                'content-type': 'text/csv; charset=utf-8',
                'content-disposition': 'attachment; filename="bound-book-Main.csv"',
              }
            : {};
        expect(
          contract.check(step.operation, { status: successStatus(step.operation), headers, body }),
          step.tool,
        ).toEqual([]);
      }
      step.learn?.((body ?? answerOf(result)) as never, state);
    }
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
  });
});
