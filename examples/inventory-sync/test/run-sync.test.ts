import type { ReceiptChange } from '@fflkit/sdk';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readSyncState } from '../src/read-sync-state';
import { runSync, type RunSyncOptions } from '../src/run-sync';
import type { SyncSource } from '../src/sync-source';
import { receiptBody, useSandbox } from './sandbox-account';
import { temporaryFolder } from './temporary-folder';

const HEADER =
  'Manufacturer,Importer,Model,Serial Number,Type,Caliber or Gauge,Date of Receipt,Received From (Name),Received From (Address),Received From (License No.),Date of Disposition,Disposed To (Name),Disposed To (Address),Disposed To (Form 4473 Serial No.),Book,Record No.,Country of Origin';

const newAccount = useSandbox();

async function syncPaths(): Promise<Pick<RunSyncOptions, 'checkpointPath' | 'output'>> {
  const folder = await temporaryFolder();
  return { checkpointPath: join(folder, '.sync-checkpoint.json'), output: join(folder, 'bound-book.csv') };
}

describe('runSync(options) against the sandbox', () => {
  it('writes the whole book first, then pulls only what changed: updates, dispositions, new and deleted receipts', async () => {
    const { logbook, baseUrl } = await newAccount();
    const paths = await syncPaths();
    const sync = () => runSync({ receipts: logbook.receipts, baseUrl, ...paths });
    const pistol = await logbook.receipts.create(receiptBody());
    const rifle = await logbook.receipts.create(
      receiptBody({
        book: 'Consignment',
        serial_number: 'SRW0000001',
        manufacturer: 'Sample Rifle Works',
        importer: 'Example Imports Inc.',
        country_of_origin: 'Austria',
        model: 'SR-308',
        type: 'Rifle',
        caliber: '.308 Win',
        receipt_date: '2025-03-04',
        received_from: 'Jane Example',
        ffl_license: null,
        address: '1 Example Way',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
      }),
    );
    const shotgun = await logbook.receipts.create(
      receiptBody({
        serial_number: 'EXA0000002',
        model: 'EX-12 Field',
        type: 'Shotgun',
        caliber: '12 Gauge',
        receipt_date: '2025-03-05',
      }),
    );
    const rimfire = await logbook.receipts.create(
      receiptBody({
        serial_number: 'EXA0000003',
        model: 'EX-22',
        type: 'Rifle',
        caliber: '.22 LR',
        receipt_date: '2025-03-06',
      }),
    );

    expect(await sync()).toEqual({ pulled: 4, created: 4, updated: 0, deleted: 0, receipts: 4, rows: 4 });
    expect(await readFile(paths.output as string, 'utf8')).toBe(
      [
        HEADER,
        'Sample Rifle Works,Example Imports Inc.,SR-308,SRW0000001,Rifle,.308 Win,2025-03-04,Jane Example,"1 Example Way, Springfield, IL 62701",,,,,,Consignment,1,Austria',
        'Example Arms Co.,,EX-9 Compact,EXA0000001,Pistol,9mm Luger,2025-03-03,Example Firearms Wholesale LLC,,9-99-999-01-6A-00001,,,,,Main,1,',
        'Example Arms Co.,,EX-12 Field,EXA0000002,Shotgun,12 Gauge,2025-03-05,Example Firearms Wholesale LLC,,9-99-999-01-6A-00001,,,,,Main,2,',
        'Example Arms Co.,,EX-22,EXA0000003,Rifle,.22 LR,2025-03-06,Example Firearms Wholesale LLC,,9-99-999-01-6A-00001,,,,,Main,3,',
        '',
      ].join('\n'),
    );

    await logbook.receipts.update(pistol.id, { model: 'EX-9 Compact OR' });
    await logbook.receipts.dispose(shotgun.id, {
      disposition_date: '2025-04-02',
      disposed_to: 'John Q. Example',
      form_4473_serial: '2025-000123',
    });
    await logbook.receipts.dispose(rifle.id, {
      disposition_date: '2025-04-03',
      disposed_to: 'Sam Sample',
      address: '12 Sample Street',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
    });
    await logbook.receipts.delete(rimfire.id);
    await logbook.receipts.create(
      receiptBody({ serial_number: 'EXA0000004', model: 'EX-45', caliber: '.45 ACP', receipt_date: '2025-04-01' }),
    );

    expect(await sync()).toEqual({ pulled: 4, created: 1, updated: 3, deleted: 1, receipts: 4, rows: 4 });
    const book = [
      HEADER,
      'Sample Rifle Works,Example Imports Inc.,SR-308,SRW0000001,Rifle,.308 Win,2025-03-04,Jane Example,"1 Example Way, Springfield, IL 62701",,2025-04-03,Sam Sample,"12 Sample Street, Springfield, IL 62701",,Consignment,1,Austria',
      'Example Arms Co.,,EX-9 Compact OR,EXA0000001,Pistol,9mm Luger,2025-03-03,Example Firearms Wholesale LLC,,9-99-999-01-6A-00001,,,,,Main,1,',
      'Example Arms Co.,,EX-12 Field,EXA0000002,Shotgun,12 Gauge,2025-03-05,Example Firearms Wholesale LLC,,9-99-999-01-6A-00001,2025-04-02,John Q. Example,,2025-000123,Main,2,',
      // Record 3 was deleted; record numbers are never reused, so the book goes on at 4.
      'Example Arms Co.,,EX-45,EXA0000004,Pistol,.45 ACP,2025-04-01,Example Firearms Wholesale LLC,,9-99-999-01-6A-00001,,,,,Main,4,',
      '',
    ].join('\n');
    expect(await readFile(paths.output as string, 'utf8')).toBe(book);

    expect(await sync()).toEqual({ pulled: 0, created: 0, updated: 0, deleted: 0, receipts: 4, rows: 4 });
    expect(await readFile(paths.output as string, 'utf8')).toBe(book);
  });

  it('exports one book when asked, and writes to a stream', async () => {
    const { logbook, baseUrl } = await newAccount();
    await logbook.receipts.create(receiptBody());
    await logbook.receipts.create(receiptBody({ book: 'Consignment', serial_number: 'EXA0000002' }));
    const chunks: string[] = [];
    const output = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk.toString('utf8'));
        callback();
      },
    });

    const report = await runSync({
      receipts: logbook.receipts,
      baseUrl,
      ...(await syncPaths()),
      output,
      book: 'Consignment',
    });

    expect(report).toMatchObject({ pulled: 2, receipts: 2, rows: 1 });
    expect(chunks.join('').split('\n').slice(1, -1)).toEqual([
      'Example Arms Co.,,EX-9 Compact,EXA0000002,Pistol,9mm Luger,2025-03-03,Example Firearms Wholesale LLC,,9-99-999-01-6A-00001,,,,,Consignment,1,',
    ]);
  });

  it('resumes an interrupted sync after the last change it saved, pulling nothing twice', async () => {
    const { logbook, baseUrl } = await newAccount();
    for (let n = 1; n <= 5; n++) await logbook.receipts.create(receiptBody({ serial_number: `EXA000000${n}` }));
    const paths = await syncPaths();
    const failingAfterThree: SyncSource = {
      list: (...args) => logbook.receipts.list(...args),
      iterate: (...args) => logbook.receipts.iterate(...args),
      get: (...args) => logbook.receipts.get(...args),
      async *changesSince(...args): AsyncGenerator<ReceiptChange, void, undefined> {
        let count = 0;
        for await (const change of logbook.receipts.changesSince(...args)) {
          if (++count > 3) throw new Error('connection lost');
          yield change;
        }
      },
    };

    await expect(runSync({ receipts: failingAfterThree, baseUrl, ...paths, batchSize: 2 })).rejects.toThrow(
      'connection lost',
    );
    const saved = await readSyncState(paths.checkpointPath);
    expect(saved?.receipts.map((receipt) => receipt.serial_number)).toEqual(['EXA0000001', 'EXA0000002', 'EXA0000003']);

    expect(await runSync({ receipts: logbook.receipts, baseUrl, ...paths })).toMatchObject({
      pulled: 2,
      created: 2,
      updated: 0,
      rows: 5,
    });
    const csv = await readFile(paths.output as string, 'utf8');
    expect(
      csv
        .split('\n')
        .slice(1, -1)
        .map((line) => line.split(',')[3]),
    ).toEqual(['EXA0000001', 'EXA0000002', 'EXA0000003', 'EXA0000004', 'EXA0000005']);
  });

  it('refuses a checkpoint file of another account or another service', async () => {
    const first = await newAccount();
    const second = await newAccount();
    const paths = await syncPaths();
    await first.logbook.receipts.create(receiptBody());
    await second.logbook.receipts.create(receiptBody());
    await runSync({ receipts: first.logbook.receipts, baseUrl: first.baseUrl, ...paths });

    await expect(runSync({ receipts: second.logbook.receipts, baseUrl: second.baseUrl, ...paths })).rejects.toThrow(
      /holds the receipts of account \d+, but the token is of account \d+/,
    );
    await expect(
      runSync({ receipts: first.logbook.receipts, baseUrl: 'https://logbook.example.com/rest/v1', ...paths }),
    ).rejects.toThrow(`holds the bound book of ${first.baseUrl}, not of https://logbook.example.com/rest/v1`);
  });
});
