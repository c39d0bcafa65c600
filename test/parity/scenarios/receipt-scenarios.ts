import { dispositionWithAddressBody, receiptBody } from '@fflkit/test-fixtures';
import type { Scenario } from '../scenario';

/** A receipt's life through the SDK: record, read, correct, dispose, delete, and its audit trail. */
export const receiptScenarios: readonly Scenario[] = [
  {
    name: 'records, reads, corrects, disposes and deletes a receipt, keeping its audit trail',
    statuses: [200, 201, 204, 404, 422],
    run: async (context) => {
      const token = await context.account();
      const logbook = context.client(token);
      const receipt = await context.call('receipts.create()', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-0001' })),
      );
      await context.call('receipts.get()', () => logbook.receipts.get(receipt.id));
      await context.call('receipts.update() changing two fields', () =>
        logbook.receipts.update(receipt.id, { model: 'Model 2', purchase_amount: 399.5 }),
      );
      await context.call('receipts.update() changing nothing', () =>
        logbook.receipts.update(receipt.id, { model: 'Model 2' }),
      );
      await context.control(token, 'POST', `/_sandbox/receipts/${receipt.id}/documents`, {
        name: 'bill-of-sale.pdf',
        mime_type: 'application/pdf',
        size: 48_213,
      });
      await context.control(token, 'PUT', `/_sandbox/receipts/${receipt.id}/e4473`, {
        form_4473_serial: '2025-000123',
        transferee_name: 'Jordan Example',
        nics_transaction_number: '100ABC1234',
        nics_result: 'proceed',
        completed_at: '2025-01-31T15:04:05Z',
      });
      await context.call('receipts.get() with documents and E4473', () => logbook.receipts.get(receipt.id));
      await context.call('receipts.dispose()', () =>
        logbook.receipts.dispose(receipt.id, dispositionWithAddressBody()),
      );
      await context.attempt('receipts.dispose() again', () =>
        logbook.receipts.dispose(receipt.id, dispositionWithAddressBody()),
      );
      await context.call('receipts.update() correcting a disposed receipt', () =>
        logbook.receipts.update(receipt.id, { caliber: '9x19mm Parabellum' }),
      );
      await context.call('books.list() before the deletion', () => logbook.books.list());
      await context.call('receipts.delete()', () => logbook.receipts.delete(receipt.id));
      await context.attempt('receipts.get() of the deleted receipt', () => logbook.receipts.get(receipt.id));
      await context.attempt('receipts.update() of the deleted receipt', () =>
        logbook.receipts.update(receipt.id, { model: 'X' }),
      );
      await context.attempt('receipts.delete() again', () => logbook.receipts.delete(receipt.id));
      await context.control(token, 'GET', `/_sandbox/receipts/${receipt.id}/audit`);
      await context.call('books.list() after the deletion', () => logbook.books.list());
      const next = await context.call('receipts.create() after the deletion', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-0002' })),
      );
      context.note('record numbers are never reused', { first: receipt.record, next: next.record });
    },
  },
  {
    name: 'disposes with a Form 4473 serial instead of an address, once per serial',
    statuses: [200, 201, 422],
    run: async (context) => {
      const logbook = context.client(await context.account());
      const first = await context.call('receipts.create() first', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-0101' })),
      );
      const second = await context.call('receipts.create() second', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-0102' })),
      );
      const form = { disposition_date: '2025-04-02', disposed_to: 'Jordan Example', form_4473_serial: '2025-000777' };
      await context.call('receipts.dispose() with a Form 4473 serial', () => logbook.receipts.dispose(first.id, form));
      await context.attempt('receipts.dispose() reusing the serial', () => logbook.receipts.dispose(second.id, form));
      await context.attempt('receipts.dispose() before the receipt date', () =>
        logbook.receipts.dispose(second.id, dispositionWithAddressBody({ disposition_date: '2025-01-01' })),
      );
    },
  },
  {
    name: 'an importer records the importer and the country of origin',
    statuses: [201, 422],
    run: async (context) => {
      const logbook = context.client(await context.account({ account_type: 'importer', name: 'Example Imports LLC' }));
      await context.attempt('receipts.create() without importer fields', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-0201' })),
      );
      await context.call('receipts.create() with importer fields', () =>
        logbook.receipts.create(
          receiptBody({ serial_number: 'PAR-0202', importer: 'Example Imports LLC', country_of_origin: 'Austria' }),
        ),
      );
    },
  },
];
