import { describe, expect, it } from 'vitest';
import type { Page, Receipt } from '@fflkit/types';
import { dispositionBody, errorsOf, receiptBody, withAccount } from '../harness/harness';

describe('GET /rest/v1/inventory', () => {
  it('lists the on-hand receipts, optionally of one book', async () => {
    const { api } = await withAccount({ books: ['Consignment'] });
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts', { body: receiptBody({ book: 'Consignment' }) });
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts/1/dispose', { body: dispositionBody() });
    const ids = async (query: string) =>
      ((await api('GET', '/inventory', { query })).body as Page<Receipt>).data.map((receipt) => receipt.id);
    expect(await ids('')).toEqual([2, 3]);
    expect(await ids('book=Main')).toEqual([3]);
    expect(await ids('book=None')).toEqual([]);
    expect(errorsOf(await api('GET', '/inventory', { query: 'per_page=500' }))).toEqual({
      per_page: ['The per page field must be between 1 and 200.'],
    });
  });
});
