// Receipts for seeding and for the peers' data: valid create bodies for the sandbox, and full
// receipt resources (the contract's shape) for json-server's db and the bare server's page.
import { writeFile } from 'node:fs/promises';

/** A valid `POST /rest/v1/receipts` body; `n` makes the serial number unique. */
export function receiptCreateBody(n) {
  return {
    book: 'Main',
    serial_number: `BB${String(n).padStart(9, '0')}`,
    manufacturer: 'Example Arms Co.',
    model: 'EX-9 Compact',
    type: 'Pistol',
    caliber: '9mm',
    receipt_date: '2025-01-15',
    received_from: 'Example Firearms Wholesale LLC',
    ffl_license: '9-99-999-01-6A-00001',
  };
}

/** The receipt resource the sandbox would answer for the `n`-th create body (1-based). */
export function receiptResource(n) {
  const at = new Date(Date.UTC(2025, 0, 15, 12, 0, 0) + n * 1000).toISOString().replace('.000Z', 'Z');
  return {
    id: n,
    user_id: 1,
    record: n,
    status: 'on_hand',
    importer: null,
    country_of_origin: null,
    purchase_amount: null,
    ...receiptCreateBody(n),
    address: null,
    city: null,
    state: null,
    zip: null,
    disposition: null,
    documents: [],
    e4473: null,
    created_at: at,
    updated_at: at,
  };
}

/** First page of `total` receipts in the contract's pagination envelope (Laravel's). */
export function receiptPage(total, perPage = 25, path = 'http://127.0.0.1/rest/v1/receipts') {
  const data = Array.from({ length: Math.min(perPage, total) }, (_, index) => receiptResource(index + 1));
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  return {
    data,
    links: {
      first: `${path}?page=1`,
      last: `${path}?page=${lastPage}`,
      prev: null,
      next: lastPage > 1 ? `${path}?page=2` : null,
    },
    meta: { current_page: 1, from: total ? 1 : null, last_page: lastPage, path, per_page: perPage, to: data.length || null, total },
  };
}

/** Writes a json-server database holding `count` receipts to `file`. */
export async function writeJsonServerDb(file, count) {
  const lines = [];
  for (let n = 1; n <= count; n++) lines.push(JSON.stringify(receiptResource(n)));
  await writeFile(file, `{"receipts":[\n${lines.join(',\n')}\n]}\n`);
}
