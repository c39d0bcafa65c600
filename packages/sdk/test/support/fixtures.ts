import type { Page, Receipt, ReceiptCreate } from '@boundbook/types';

/** A receipt as the service returns it. */
export function receipt(overrides: Partial<Receipt> = {}): Receipt {
  return {
    id: 1042,
    user_id: 17,
    record: 318,
    book: 'Main',
    status: 'on_hand',
    serial_number: 'EXA0012345',
    manufacturer: 'Example Arms Co.',
    importer: null,
    country_of_origin: null,
    model: 'EX-9 Compact',
    type: 'Pistol',
    caliber: '9mm Luger',
    receipt_date: '2025-03-14',
    purchase_amount: 389.5,
    received_from: 'Example Firearms Wholesale LLC',
    ffl_license: '9-99-999-01-6A-00001',
    address: null,
    city: null,
    state: null,
    zip: null,
    disposition: null,
    documents: [],
    e4473: null,
    created_at: '2025-03-14T15:04:05Z',
    updated_at: '2025-03-14T15:04:05Z',
    ...overrides,
  };
}

/** A valid body of `POST /receipts`. */
export function receiptBody(overrides: Partial<ReceiptCreate> = {}): ReceiptCreate {
  return {
    book: 'Main',
    serial_number: 'EXA0012345',
    manufacturer: 'Example Arms Co.',
    model: 'EX-9 Compact',
    type: 'Pistol',
    caliber: '9mm Luger',
    receipt_date: '2025-03-14',
    received_from: 'Example Firearms Wholesale LLC',
    ffl_license: '9-99-999-01-6A-00001',
    ...overrides,
  };
}

/** Page `number` of `items` split into pages of `perPage`, in the service's envelope. */
export function page<T>(items: T[], number: number, perPage: number, path = 'https://example.test/rest/v1/receipts'): Page<T> {
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));
  const data = items.slice((number - 1) * perPage, number * perPage);
  const link = (n: number) => `${path}?page=${n}`;
  return {
    data,
    links: { first: link(1), last: link(lastPage), prev: number > 1 ? link(number - 1) : null, next: number < lastPage ? link(number + 1) : null },
    meta: {
      current_page: number,
      from: data.length ? (number - 1) * perPage + 1 : null,
      last_page: lastPage,
      path,
      per_page: perPage,
      to: data.length ? (number - 1) * perPage + data.length : null,
      total: items.length,
    },
  };
}
