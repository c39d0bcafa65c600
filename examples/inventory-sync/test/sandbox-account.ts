import { LogbookClient, type ReceiptCreate } from '@fflkit/sdk';
import { startSandbox, type RunningSandbox } from '@fflkit/sandbox';
import { afterAll, beforeAll } from 'vitest';

/** One account of the sandbox: a client with its token, and the values to run a sync with. */
export interface SandboxAccount {
  readonly logbook: LogbookClient;
  readonly token: string;
  readonly baseUrl: string;
}

/**
 * Starts an in-memory sandbox on a free port for the test file and stops it after; each call
 * of the returned function makes a new isolated account (books `Main` and `Consignment`).
 *
 * @example
 * ```ts
 * const newAccount = useSandbox();
 * it('...', async () => { const { logbook } = await newAccount(); });
 * ```
 */
export function useSandbox(): () => Promise<SandboxAccount> {
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox?.stop());
  return async () => {
    if (sandbox === undefined) throw new Error('the sandbox is not started: call newAccount() inside a test');
    const { token } = await sandbox.createAccount({ books: ['Consignment'] });
    return { logbook: new LogbookClient({ token, baseUrl: sandbox.apiUrl }), token, baseUrl: sandbox.apiUrl };
  };
}

/**
 * A receipt from a licensed wholesaler into `Main`, with plainly fictitious values, overridden by `fields`.
 *
 * @example
 * ```ts
 * await logbook.receipts.create(receiptBody({ serial_number: 'EXA0000002' }));
 * ```
 */
export function receiptBody(fields: Partial<ReceiptCreate> = {}): ReceiptCreate {
  return {
    book: 'Main',
    serial_number: 'EXA0000001',
    manufacturer: 'Example Arms Co.',
    model: 'EX-9 Compact',
    type: 'Pistol',
    caliber: '9mm Luger',
    receipt_date: '2025-03-03',
    received_from: 'Example Firearms Wholesale LLC',
    ffl_license: '9-99-999-01-6A-00001',
    ...fields,
  };
}
