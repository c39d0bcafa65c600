import type { Receipt, SyncCheckpoint } from '@fflkit/sdk';
import { dispositionWithAddressBody, receiptBody } from '@fflkit/test-fixtures';
import type { ScenarioContext } from '../scenario-context';
import type { Scenario } from '../scenario';

/** Five receipts over two books, two makers and two types; the third in the book `Range`. */
async function stockFive(context: ScenarioContext, token: string): Promise<Receipt[]> {
  const logbook = context.client(token);
  const receipts: Receipt[] = [];
  for (let index = 1; index <= 5; index += 1) {
    const body = receiptBody({
      serial_number: `PAR-L${index}`,
      manufacturer: index % 2 === 0 ? 'Acme Rifle Works' : 'Example Arms Co.',
      type: index % 2 === 0 ? 'Rifle' : 'Pistol',
      book: index === 3 ? 'Range' : 'Main',
    });
    receipts.push(await context.call(`receipts.create() #${index}`, () => logbook.receipts.create(body)));
  }
  return receipts;
}

/** Pagination, filters, inventory, search and books, through the SDK's lists and iterators. */
export const listScenarios: readonly Scenario[] = [
  {
    name: 'pages through receipts and filters them',
    statuses: [200, 201],
    run: async (context) => {
      const token = await context.account({ books: ['Range'] });
      const logbook = context.client(token);
      await stockFive(context, token);
      const pages = [];
      for await (const page of logbook.receipts.iterate({ per_page: 2 }).pages()) pages.push(page.meta);
      context.note('pages of receipts.iterate({ per_page: 2 })', pages);
      const serials = [];
      for await (const receipt of logbook.receipts.iterate({ per_page: 3 })) serials.push(receipt.serial_number);
      context.note('items of receipts.iterate({ per_page: 3 })', serials);
      await context.call('receipts.list() past the last page', () => logbook.receipts.list({ page: 9, per_page: 2 }));
      await context.call('receipts.list({ book })', () => logbook.receipts.list({ book: 'Range' }));
      await context.call('receipts.list({ book }) of no book', () => logbook.receipts.list({ book: 'Nowhere' }));
      await context.call('receipts.list({ manufacturer }) in another case', () =>
        logbook.receipts.list({ manufacturer: 'acme' }),
      );
      await context.call('receipts.list({ serial_number })', () => logbook.receipts.list({ serial_number: 'l4' }));
      await context.call('books.list()', () => logbook.books.list());
    },
  },
  {
    name: 'keeps disposed receipts out of the inventory and deleted ones out of everything',
    statuses: [200, 201, 204],
    run: async (context) => {
      const token = await context.account({ books: ['Range'] });
      const logbook = context.client(token);
      const receipts = await stockFive(context, token);
      await context.call('receipts.dispose() #2', () =>
        logbook.receipts.dispose(receipts[1]!.id, dispositionWithAddressBody()),
      );
      await context.call('receipts.delete() #4', () => logbook.receipts.delete(receipts[3]!.id));
      await context.call('inventory.list({ per_page: 2 })', () => logbook.inventory.list({ per_page: 2 }));
      const onHand = [];
      for await (const receipt of logbook.inventory.iterate({ per_page: 2 })) onHand.push(receipt.serial_number);
      context.note('items of inventory.iterate({ per_page: 2 })', onHand);
      await context.call('receipts.list({ status: disposed })', () => logbook.receipts.list({ status: 'disposed' }));
      await context.call('receipts.list({ status: on_hand })', () => logbook.receipts.list({ status: 'on_hand' }));
      await context.call('search.list() in every field', () => logbook.search.list({ q: 'ACME' }));
      await context.call('search.list() in one field', () =>
        logbook.search.list({ q: 'pistol', field: 'type', per_page: 1 }),
      );
      await context.call('search.list() of the deleted serial', () =>
        logbook.search.list({ q: 'PAR-L4', field: 'serial_number' }),
      );
      await context.call('books.list()', () => logbook.books.list());
    },
  },
  {
    name: 'syncs changes incrementally with receipts.changesSince()',
    statuses: [200, 201],
    run: async (context) => {
      const token = await context.account();
      const logbook = context.client(token);
      const first = await context.call('receipts.create() #1', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-S1' })),
      );
      await context.call('receipts.create() #2', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-S2' })),
      );
      const sync = async (label: string, from: SyncCheckpoint | null): Promise<SyncCheckpoint | null> => {
        let checkpoint = from;
        const serials: string[] = [];
        for await (const change of logbook.receipts.changesSince(from)) {
          serials.push(change.receipt.serial_number);
          checkpoint = change.checkpoint;
        }
        // What a checkpoint holds depends on whether a second ticked between the writes (it keeps
        // the versions seen within the last second), so only whether it moved is compared.
        context.note(label, { serials, checkpointed: typeof checkpoint?.after === 'string' });
        return checkpoint;
      };
      const checkpoint = await sync('first sync', null);
      await context.call('receipts.update() #1', () => logbook.receipts.update(first.id, { model: 'Model 3' }));
      await context.call('receipts.create() #3', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-S3' })),
      );
      const next = await sync('second sync', checkpoint);
      await sync('third sync, nothing new', next);
    },
  },
];
