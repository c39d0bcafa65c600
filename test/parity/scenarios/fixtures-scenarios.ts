import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { receiptBody } from '@fflkit/test-fixtures';
import { HEADERS, type SandboxDelivery, type SandboxFixtures } from '@fflkit/types';
import { verifySignature } from '@fflkit/webhooks';
import { parse } from 'yaml';
import type { Scenario } from '../scenario';

/** The file both faces load before the scenario, and its fixed credentials. */
const FIXTURES_FILE = fileURLToPath(new URL('./fixtures.yaml', import.meta.url));
const TOKEN = 'sbx_parityfixture00000000000001';
const READER = 'sbx_parityfixture00000000000002';
const MAKER = 'sbx_parityfixture00000000000003';
const SECRET = 'whsec_parityfixture000000000000000001';

interface DeliveryWithRequest extends SandboxDelivery {
  readonly request: { readonly headers: Readonly<Record<string, string>>; readonly body: string } | null;
}

/** A fixtures file loaded alike on both faces: fixed tokens and secrets, export, idempotence, faults. */
export const fixturesScenarios: readonly Scenario[] = [
  {
    name: 'loads a fixtures file: fixed tokens and secret, the export, a second load that adds nothing, faults by path',
    statuses: [200, 201, 403, 422],
    fixtures: FIXTURES_FILE,
    run: async (context) => {
      const file = parse(readFileSync(FIXTURES_FILE, 'utf8')) as SandboxFixtures;
      const logbook = context.client(TOKEN);
      const reader = context.client(READER);
      await context.call('books.list() with the fixed token', () => logbook.books.list());
      await context.call('receipts.list() with the fixed read token', () => reader.receipts.list());
      await context.attempt('receipts.create() with the fixed read token', () =>
        reader.receipts.create(receiptBody({ serial_number: 'PAR-F1' })),
      );
      await context.call('books.list() of the manufacturer', () => context.client(MAKER).books.list());
      await context.control(
        TOKEN,
        'GET',
        '/_sandbox/clock',
        undefined,
        (body) => (body as { data: { offset_seconds: number } }).data.offset_seconds,
      );

      const exported = await context.control<SandboxFixtures>(TOKEN, 'GET', '/_sandbox/fixtures');
      const [account] = exported.accounts;
      context.note('the export holds the fixed token and secret', {
        token: account?.tokens[0]?.token === TOKEN,
        secret: account?.webhooks?.[0]?.secret === SECRET,
      });
      await context.control(undefined, 'POST', '/_sandbox/fixtures', file);
      const [retail] = file.accounts;
      await context.control(undefined, 'POST', '/_sandbox/fixtures', {
        accounts: [
          { ...retail, receipts: [{ ...retail?.receipts?.[0], serial_number: 'PAR-F2', zip: '6270' }] },
          { tokens: [{ token: 'sbx_short' }] },
        ],
      });

      await context.call('receipts.list() after the refused file', () => reader.receipts.list());

      await context.call('receipts.create() with the fixed token', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-F3' })),
      );
      await context.settle(TOKEN);
      const { data } = await context.control<{ data: SandboxDelivery[] }>(TOKEN, 'GET', '/_sandbox/deliveries');
      const delivery = await context.control<{ data: DeliveryWithRequest }>(
        TOKEN,
        'GET',
        `/_sandbox/deliveries/${data[0]?.id ?? 'none'}`,
      );
      const request = delivery.data.request;
      context.note(
        'the delivery is signed with the fixed secret',
        request === null ? null : await verifySignature(SECRET, request.body, request.headers[HEADERS.signature]),
      );
    },
  },
];
