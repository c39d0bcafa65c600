// Receipts for the peers' data: full receipt resources (the contract's shape) for json-server's
// db and the bare server's page, numbered as the sandbox's seeded receipts are (the bodies the
// sandbox is given come from @fflkit/test-fixtures, as here).
import { numberedReceiptBody, receiptResource } from '@fflkit/test-fixtures';
import { writeFile } from 'node:fs/promises';

/** The receipt resource the sandbox would answer for `numberedReceiptBody(n)`, the `n`-th of its account (1-based). */
export function numberedReceiptResource(n) {
  const at = new Date(Date.UTC(2025, 2, 14, 15, 4, 5) + n * 1000).toISOString().replace('.000Z', 'Z');
  return receiptResource({ ...numberedReceiptBody(n), id: n, user_id: 1, record: n, created_at: at, updated_at: at });
}

/** First page of `total` receipts in the contract's pagination envelope (Laravel's). */
export function receiptPage(total, perPage = 25, path = 'http://127.0.0.1/rest/v1/receipts') {
  const data = Array.from({ length: Math.min(perPage, total) }, (_, index) => numberedReceiptResource(index + 1));
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  return {
    data,
    links: {
      first: `${path}?page=1`,
      last: `${path}?page=${lastPage}`,
      prev: null,
      next: lastPage > 1 ? `${path}?page=2` : null,
    },
    meta: {
      current_page: 1,
      from: total ? 1 : null,
      last_page: lastPage,
      path,
      per_page: perPage,
      to: data.length || null,
      total,
    },
  };
}

/** Writes a json-server database holding `count` receipts to `file`. */
export async function writeJsonServerDb(file, count) {
  const lines = [];
  for (let n = 1; n <= count; n++) lines.push(JSON.stringify(numberedReceiptResource(n)));
  await writeFile(file, `{"receipts":[\n${lines.join(',\n')}\n]}\n`);
}
