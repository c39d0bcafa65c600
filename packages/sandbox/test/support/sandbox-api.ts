import type { Server } from '@hapi/hapi';
import { receiptBody } from './receipt-body';

/** A receipt as the API answers it, reduced to what the tests read. */
export interface ReceiptSummary {
  id: number;
  record: number;
  serial_number: string;
}

/** Makes an account through the control API and answers its token. */
export async function injectAccount(server: Server): Promise<string> {
  const response = await server.inject({ method: 'POST', url: '/_sandbox/accounts' });
  if (response.statusCode !== 201) throw new Error(`POST /_sandbox/accounts: ${response.payload}`);
  return (JSON.parse(response.payload) as { token: string }).token;
}

/** Creates receipt `n` in the book Main and answers the status and the receipt. */
export async function injectReceipt(
  server: Server,
  token: string,
  n: number,
): Promise<{ status: number; receipt: ReceiptSummary }> {
  const response = await server.inject({
    method: 'POST',
    url: '/rest/v1/receipts',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: receiptBody(n),
  });
  const body = JSON.parse(response.payload) as { data: ReceiptSummary };
  return { status: response.statusCode, receipt: body.data };
}

/** Every live receipt of the token's account, page by page. */
export async function listReceipts(
  get: (path: string) => Promise<{ status: number; body: unknown }>,
): Promise<ReceiptSummary[]> {
  const receipts: ReceiptSummary[] = [];
  for (let page = 1; ; page += 1) {
    const { status, body } = await get(`/rest/v1/receipts?per_page=200&page=${page}`);
    if (status !== 200) throw new Error(`GET /rest/v1/receipts: ${status} ${JSON.stringify(body)}`);
    const { data, meta } = body as { data: ReceiptSummary[]; meta: { last_page: number } };
    receipts.push(...data);
    if (page >= meta.last_page) return receipts;
  }
}

/** A `get` for {@link listReceipts} over `server.inject()`. */
export function injectGetter(server: Server, token: string) {
  return async (path: string) => {
    const response = await server.inject({
      method: 'GET',
      url: path,
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: response.statusCode, body: JSON.parse(response.payload) as unknown };
  };
}

/** A `get` for {@link listReceipts} over the network. */
export function fetchGetter(origin: string, token: string) {
  return async (path: string) => {
    const response = await fetch(`${origin}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };
}
