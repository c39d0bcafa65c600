import { receiptBody } from '@fflkit/test-fixtures';
import type { SandboxRequestLogEntry } from '@fflkit/types';
import type { Scenario } from '../scenario';
import { rawOutcome } from './raw-outcome';

/**
 * The request log without what only the transport decides (`Host`, `Connection`, the headers
 * a `fetch` adds), keeping what the service records: the call, its answer and the redaction.
 */
function requestLogView(body: unknown): unknown {
  const { data } = body as { data: SandboxRequestLogEntry[] };
  return data.map(({ method, path, query, status, headers }) => ({
    method,
    path,
    query,
    status,
    authorization: headers['authorization'],
    user_agent: headers['user-agent'],
  }));
}

/** The sandbox control API as integrators' test suites use it: books, clock, log, reset, accounts. */
export const controlScenarios: readonly Scenario[] = [
  {
    name: 'adds books, logs requests with the token redacted, and resets an account',
    statuses: [200, 201, 204, 422],
    run: async (context) => {
      const token = await context.account({ name: 'Example Retail LLC' });
      const logbook = context.client(token);
      await context.control(token, 'POST', '/_sandbox/books', { name: 'Range' });
      await context.control(token, 'POST', '/_sandbox/books', { name: 'Range' });
      await context.call('books.list()', () => logbook.books.list());
      await context.call('receipts.create() in Range', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-C1', book: 'Range' })),
      );
      await context.call('webhooks.create()', () =>
        logbook.webhooks.create({ url: 'https://hooks.example.com/a', events: ['*'] }),
      );
      await context.attempt('receipts.list() with a bad page', () =>
        logbook.raw.GET('/receipts', { params: { query: { page: 0 } } }).then(rawOutcome),
      );
      await context.control(token, 'GET', '/_sandbox/requests', undefined, requestLogView);
      await context.control(token, 'GET', '/_sandbox/clock');
      await context.control(token, 'POST', '/_sandbox/clock/advance', { seconds: 0 });
      await context.control(token, 'POST', '/_sandbox/reset');
      await context.call('receipts.list() after the reset', () => logbook.receipts.list());
      await context.call('books.list() after the reset', () => logbook.books.list());
      await context.call('webhooks.list() after the reset', () => logbook.webhooks.list());
    },
  },
  {
    name: 'makes accounts and tokens through the control API',
    statuses: [201, 401, 422],
    run: async (context) => {
      const created = await context.control<{ token: string }>(undefined, 'POST', '/_sandbox/accounts', {
        account_type: 'manufacturer',
        name: 'Example Manufacturing Inc.',
        books: ['Production'],
      });
      await context.control(undefined, 'POST', '/_sandbox/accounts', { account_type: 'wizard' });
      await context.control(undefined, 'GET', '/_sandbox/deliveries');
      await context.control(created.token, 'POST', '/_sandbox/tokens', { permissions: ['read', 'admin'] });
      await context.control(created.token, 'POST', '/_sandbox/tokens', {
        permissions: ['read'],
        name: 'Inventory sync',
      });
      await context.call('receipts.create() of a manufacturer', () =>
        context.client(created.token).receipts.create(receiptBody({ serial_number: 'PAR-C2', book: 'Production' })),
      );
    },
  },
];
