import { receiptResource } from '@fflkit/test-fixtures';
import { describe, expect, it } from 'vitest';
import { FixturesRecorder } from '../../src/drift-proxy/fixtures-recorder';
import { startSandbox } from '../../src/index';

// The recorder keeps one account per caller, the latest version of each receipt, nothing the
// service said was deleted, and leaves out (saying why) a record the sandbox's rules refuse, so
// that the file it gives always loads.

describe('FixturesRecorder', () => {
  it('keeps the latest version of each receipt, one account per caller, and no deleted receipt', async () => {
    const recorder = new FixturesRecorder();
    const first = receiptResource({ id: 1, serial_number: 'KEEP-1', updated_at: '2025-03-14T15:04:05Z' });
    recorder.observe('caller-a', 'createReceipt', undefined, 201, { data: first });
    recorder.observe('caller-a', 'listReceipts', undefined, 200, {
      data: [
        { ...first, model: 'Newer', updated_at: '2025-03-15T09:00:00Z' },
        receiptResource({ id: 2, serial_number: 'GONE-2' }),
      ],
    });
    // An older copy seen later does not undo the newer one.
    recorder.observe('caller-a', 'getReceipt', 1, 200, { data: first });
    recorder.observe('caller-a', 'deleteReceipt', 2, 204, undefined);
    recorder.observe('caller-b', 'listBooks', undefined, 200, { data: [{ name: 'Main' }, { name: 'Range' }] });
    recorder.observe('caller-b', 'getReceipt', 9, 404, { message: 'Record not found.' });

    const { fixtures, left } = await recorder.fixtures();
    expect(left).toEqual([]);
    expect(fixtures.accounts.map((account) => account.tokens[0]?.token)).toEqual([
      'sbx_recorded000000000000000000000001',
      'sbx_recorded000000000000000000000002',
    ]);
    expect(fixtures.accounts[0]?.receipts?.map((receipt) => [receipt.serial_number, receipt.model])).toEqual([
      ['KEEP-1', 'Newer'],
    ]);
    expect(fixtures.accounts[1]).toEqual({
      name: 'Recorded account 2',
      books: ['Range'],
      tokens: [{ token: 'sbx_recorded000000000000000000000002', name: 'Recorded by fflkit-sandbox proxy' }],
    });
  });

  it('leaves out a receipt the sandbox would refuse, says why, and gives a file that loads', async () => {
    const recorder = new FixturesRecorder();
    recorder.observe('caller', 'listReceipts', undefined, 200, {
      data: [
        receiptResource({ id: 1, serial_number: 'GOOD-1' }),
        receiptResource({ id: 2, serial_number: 'ODD-2', ffl_license: 'license on file' }),
      ],
    });
    const { fixtures, left } = await recorder.fixtures();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^the receipt ODD-2 of recorded account 1: ffl_license /);
    expect(fixtures.accounts[0]?.receipts?.map((receipt) => receipt.serial_number)).toEqual(['GOOD-1']);
    const sandbox = await startSandbox({ fixtures });
    await sandbox.stop();
  });
});
