import type { SandboxRequest } from '@boundbook/sandbox-core';

/**
 * A valid `POST /rest/v1/receipts` body for the book `Main`, with a serial number unique to `n`.
 */
export function receiptBody(n: number): string {
  return JSON.stringify({
    book: 'Main',
    serial_number: `SBX${String(n).padStart(7, '0')}`,
    manufacturer: 'Example Arms Co.',
    model: 'EX-9 Compact',
    type: 'Pistol',
    caliber: '9mm Luger',
    receipt_date: '2025-03-14',
    purchase_amount: 389.5,
    received_from: 'Example Firearms Wholesale LLC',
    ffl_license: '9-99-999-01-6A-00001',
  });
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
