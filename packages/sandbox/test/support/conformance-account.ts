import { dispositionBody, numberedReceiptBody } from '@fflkit/test-fixtures';
import type { SandboxFixtures } from '@fflkit/types';

// The account the conformance probe runs against, in the sandbox's tests and in MCP's: a token
// for the run, a read-only one, and receipts whose documents, E4473 data and disposition give the
// read probes something to read.

/** The fixtures of an account named `name` holding `token` and the read-only `readToken`. */
export function conformanceAccount(name: string, token: string, readToken: string): SandboxFixtures {
  return {
    accounts: [
      {
        name,
        books: ['Range'],
        tokens: [{ token }, { token: readToken, permissions: ['read'] }],
        receipts: [
          {
            ...numberedReceiptBody(1, { receipt_date: '2025-03-14' }),
            disposition: dispositionBody({ disposition_date: '2025-04-02' }),
            documents: [{ name: 'bill-of-sale.pdf', mime_type: 'application/pdf', size: 48_213 }],
            e4473: {
              form_4473_serial: '2025-000123',
              transferee_name: 'John Q. Example',
              nics_transaction_number: '100EXAMPLE01',
              nics_result: 'proceed',
              completed_at: '2025-04-02T16:10:00Z',
            },
          },
          numberedReceiptBody(2, { receipt_date: '2025-03-15' }),
        ],
      },
    ],
  };
}
