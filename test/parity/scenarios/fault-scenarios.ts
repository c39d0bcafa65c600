import type { SandboxRequestLogEntry } from '@fflkit/types';
import { receiptBody } from '@fflkit/test-fixtures';
import type { Scenario } from '../scenario';

/**
 * The request log's faulted entries without what only the transport decides (headers, times):
 * the call, its answer, the rule's mark and the serial number it carried.
 */
function faultLogView(body: unknown): unknown {
  const { data, truncated } = body as { data: SandboxRequestLogEntry[]; truncated: boolean };
  return {
    truncated,
    data: data.map(({ method, path, operation, status, fault, body: sent }) => ({
      method,
      path,
      operation,
      status,
      fault,
      serial_number: (sent as { serial_number?: string } | null)?.serial_number ?? null,
    })),
  };
}

/** Fault rules on both faces: the same rule gives the same answers, marks and state. */
export const faultScenarios: readonly Scenario[] = [
  {
    name: 'fails requests with a status before or after acting, and refuses a rule it cannot keep',
    statuses: [200, 201, 204, 404, 422, 429, 502, 503],
    run: async (context) => {
      const token = await context.account();
      const logbook = context.client(token);
      await context.control(token, 'POST', '/_sandbox/faults', {
        operation: 'createReceipt',
        action: 'status',
        status: 503,
        retry_after: 2,
        times: 1,
      });
      await context.control(token, 'POST', '/_sandbox/faults', {
        operation: 'createReceipt',
        action: 'status',
        status: 502,
        after_acting: true,
        times: 1,
      });
      await context.control(token, 'POST', '/_sandbox/faults', {
        method: 'GET',
        path: '/books',
        action: 'status',
        status: 429,
        times: 1,
      });
      await context.control(token, 'POST', '/_sandbox/faults', {
        operation: 'createReciept',
        action: 'status',
        status: 429,
        after_acting: true,
      });
      await context.control(token, 'POST', '/_sandbox/faults', {
        path: '/rest/v1/receipts',
        action: 'drop',
        times: 0,
        probability: 2,
      });
      await context.attempt('receipts.create() before acting', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-FT1' })),
      );
      await context.attempt('receipts.create() after acting', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-FT2' })),
      );
      await context.call('receipts.create() once the rules are spent', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-FT3' })),
      );
      await context.attempt('books.list() under a 429', () => logbook.books.list());
      await context.call('receipts.list(): the change after acting was kept', () => logbook.receipts.list());
      await context.control(token, 'GET', '/_sandbox/faults');
      await context.control(token, 'GET', '/_sandbox/requests?faulted=true', undefined, faultLogView);
      await context.control(token, 'DELETE', '/_sandbox/faults/1');
      await context.control(token, 'DELETE', '/_sandbox/faults/1');
      await context.control(token, 'DELETE', '/_sandbox/faults');
      await context.control(token, 'GET', '/_sandbox/faults');
    },
  },
  {
    name: 'drops connections before and after acting, and delays answers',
    statuses: [0, 200, 201],
    run: async (context) => {
      const token = await context.account();
      const logbook = context.client(token);
      await context.control(token, 'POST', '/_sandbox/faults', {
        operation: 'createReceipt',
        action: 'drop',
        after_acting: true,
        times: 1,
      });
      await context.control(token, 'POST', '/_sandbox/faults', {
        operation: 'createWebhook',
        action: 'drop',
        times: 1,
      });
      await context.control(token, 'POST', '/_sandbox/faults', {
        operation: 'listBooks',
        action: 'delay',
        delay_ms: 20,
      });
      await context.attempt('receipts.create() dropped after acting', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-FT4' })),
      );
      await context.attempt('webhooks.create() dropped before acting', () =>
        logbook.webhooks.create({ url: 'https://hooks.example.com/f', events: ['*'] }),
      );
      const started = performance.now();
      await context.call('books.list() delayed', () => logbook.books.list());
      // Node's timers may fire up to a millisecond early.
      context.note('the answer was held back its 20 ms', performance.now() - started >= 19);
      await context.call('receipts.list(): the dropped create was kept', () => logbook.receipts.list());
      await context.call('webhooks.list(): the dropped creation made nothing', () => logbook.webhooks.list());
      await context.control(token, 'GET', '/_sandbox/requests?faulted=true', undefined, faultLogView);
    },
  },
  {
    name: 'draws a seeded probability alike, request by request',
    statuses: [200, 201, 500],
    run: async (context) => {
      const token = await context.account();
      const logbook = context.client(token);
      await context.control(token, 'POST', '/_sandbox/faults', {
        operation: 'listBooks',
        action: 'status',
        status: 500,
        probability: 0.4,
        seed: 1234,
      });
      for (let call = 1; call <= 15; call += 1)
        await context.attempt(`books.list() #${call}`, () => logbook.books.list());
      await context.control(token, 'GET', '/_sandbox/faults');
    },
  },
  {
    name: 'keeps rules to their account, off control calls and unauthenticated requests, until a reset',
    statuses: [200, 201, 204, 401, 503],
    run: async (context) => {
      const token = await context.account();
      const other = await context.account();
      await context.control(token, 'POST', '/_sandbox/faults', { action: 'status', status: 503 });
      await context.attempt('books.list() of the faulted account', () => context.client(token).books.list());
      await context.call('books.list() of another account', () => context.client(other).books.list());
      await context.send('GET', '/books');
      await context.control(token, 'GET', '/_sandbox/clock');
      await context.control(token, 'POST', '/_sandbox/reset');
      await context.control(token, 'GET', '/_sandbox/faults');
      await context.call('books.list() after the reset', () => context.client(token).books.list());
    },
  },
  {
    name: 'filters the request log by operation, body, status and time, with bodies redacted',
    statuses: [200, 201, 422],
    run: async (context) => {
      const token = await context.account();
      const logbook = context.client(token);
      await context.call('receipts.create() PAR-FT5', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-FT5' })),
      );
      await context.call('receipts.create() PAR-FT6', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-FT6' })),
      );
      await context.attempt('receipts.create() without a book', () =>
        logbook.receipts.create({ ...receiptBody({ serial_number: 'PAR-FT7' }), book: '' }),
      );
      await context.call('webhooks.create() with a credential in its URL', () =>
        logbook.webhooks.create({ url: `https://hooks.example.com/in?token=${token}`, events: ['*'] }),
      );
      const body = encodeURIComponent(JSON.stringify({ serial_number: 'PAR-FT6' }));
      await context.control(
        token,
        'GET',
        `/_sandbox/requests?operation=createReceipt&body=${body}`,
        undefined,
        faultLogView,
      );
      await context.control(
        token,
        'GET',
        '/_sandbox/requests?operation=createReceipt&status=422',
        undefined,
        faultLogView,
      );
      await context.control(token, 'GET', '/_sandbox/requests?operation=createWebhook', undefined, (answer) =>
        (answer as { data: SandboxRequestLogEntry[] }).data.map((entry) => entry.body),
      );
      await context.control(token, 'GET', `/_sandbox/requests?from=${encodeURIComponent('2999-01-01T00:00:00Z')}`);
      await context.control(token, 'GET', '/_sandbox/requests?status=abc&faulted=maybe');
    },
  },
];
