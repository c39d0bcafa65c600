import type { SandboxRequest } from '@fflkit/sandbox-core';
import { numberedReceiptBody } from '@fflkit/test-fixtures';

/**
 * The JSON text of a valid `POST /rest/v1/receipts` body for the book `Main`: the contract's
 * sample receipt with the serial number `SBX` and `n` in seven digits (`SBX0000007`).
 */
export function receiptBody(n: number): string {
  return JSON.stringify(numberedReceiptBody(n));
}

/** The core's request for `POST /rest/v1/receipts` of {@link receiptBody}`(n)` with `token`. */
export function receiptRequest(token: string, n: number): SandboxRequest {
  return {
    method: 'POST',
    path: '/rest/v1/receipts',
    query: '',
    headers: { authorization: `Bearer ${token}` },
    body: receiptBody(n),
  };
}
