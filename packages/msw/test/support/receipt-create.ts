import type { ReceiptCreate } from '@boundbook/types';

/** A valid `POST /receipts` body for the book `Main`, with plainly fictitious values. */
export const receiptCreate = {
  book: 'Main',
  serial_number: 'EXA-000123',
  manufacturer: 'Example Arms Co.',
  model: 'Model 1',
  type: 'Pistol',
  caliber: '9mm',
  receipt_date: '2025-03-14',
  received_from: 'Example Firearms Wholesale LLC',
  ffl_license: '9-99-999-01-6A-00001',
} as const satisfies ReceiptCreate;
