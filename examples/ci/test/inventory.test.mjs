// The tests of an integration, as `npm test` runs them in the CI job: against the sandbox the job
// started, with the fixed token of the fixtures file. The SDK reads FFLKIT_BASE_URL and
// FFLKIT_TOKEN from the environment.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LogbookClient } from '@fflkit/sdk';

const logbook = new LogbookClient();

test('the fixtures account holds the firearm on hand, and not the one disposed', async () => {
  const onHand = [];
  for await (const receipt of logbook.inventory.iterate()) onHand.push(receipt.serial_number);
  assert.deepEqual(onHand, ['EXA0012345']);
});

test('a firearm received during the tests is recorded on the next line of the book', async () => {
  const receipt = await logbook.receipts.create({
    book: 'Main',
    serial_number: `CI${Date.now()}`,
    manufacturer: 'Example Arms Co.',
    model: 'EX-9 Compact',
    type: 'Pistol',
    caliber: '9mm Luger',
    receipt_date: '2025-03-14',
    received_from: 'Example Firearms Wholesale LLC',
    ffl_license: '9-99-999-01-6A-00001',
  });
  assert.equal(receipt.book, 'Main');
  assert.equal(receipt.record, 2);
});
