import { describe, expect, it } from 'vitest';
import type { Page, Receipt } from '@fflkit/types';
import { dispositionBody, errorsOf, receiptBody, withAccount } from '../harness/harness';

describe('GET /rest/v1/search', () => {
  it('matches q case-insensitively in any of the seven fields, or in the one given, every status', async () => {
    const { api } = await withAccount({ books: ['Glock Consignment'] });
    await api('POST', '/receipts', { body: receiptBody({ serial_number: 'ABC-GLOCK-1' }) });
    await api('POST', '/receipts', { body: receiptBody({ manufacturer: 'Glock GmbH' }) });
    await api('POST', '/receipts', { body: receiptBody({ book: 'Glock Consignment' }) });
    await api('POST', '/receipts', { body: receiptBody({ caliber: '.45 ACP' }) });
    await api('POST', '/receipts/2/dispose', { body: dispositionBody() });
    const ids = async (query: string) =>
      ((await api('GET', '/search', { query })).body as Page<Receipt>).data.map((receipt) => receipt.id);
    expect(await ids('q=glock')).toEqual([1, 2, 3]);
    expect(await ids('q=%20GLOCK%20&field=manufacturer')).toEqual([2]);
    expect(await ids('q=glock&field=book')).toEqual([3]);
    expect(await ids('q=acp&field=caliber')).toEqual([4]);
    expect(await ids('q=nothing')).toEqual([]);
  });

  it('answers the pagination envelope', async () => {
    const { api } = await withAccount();
    await api('POST', '/receipts', { body: receiptBody() });
    const body = (await api('GET', '/search', { query: 'q=exa&per_page=1' })).body as Page<Receipt>;
    expect(body.meta).toMatchObject({ total: 1, per_page: 1, path: 'http://sandbox.test/rest/v1/search' });
    expect(body.links.first).toBe('http://sandbox.test/rest/v1/search?q=exa&per_page=1&page=1');
  });

  it('pages its matches: the page asked for and their count', async () => {
    const { api } = await withAccount({}, { rateLimit: 0 });
    for (let index = 1; index <= 6; index += 1) {
      await api('POST', '/receipts', {
        body: receiptBody({ serial_number: `SN-${index}`, model: index % 2 === 0 ? 'Match' : 'Other' }),
      });
    }
    const body = (await api('GET', '/search', { query: 'q=match&per_page=2&page=2' })).body as Page<Receipt>;
    expect(body.data.map((receipt) => receipt.id)).toEqual([6]);
    expect(body.meta).toMatchObject({ current_page: 2, from: 3, to: 3, last_page: 2, total: 3 });
  });

  it('needs q of 1 to 100 characters and a known field', async () => {
    const { api } = await withAccount();
    const errors = async (query: string) => errorsOf(await api('GET', '/search', { query }));
    expect(await errors('')).toEqual({ q: ['The q field is required.'] });
    expect(await errors('q=%20%20')).toEqual({ q: ['The q field is required.'] });
    expect(await errors(`q=${'x'.repeat(101)}&field=colour`)).toEqual({
      q: ['The q field must not be greater than 100 characters.'],
      field: ['The selected field is invalid.'],
    });
  });
});

describe('GET /rest/v1/search matches the term literally', () => {
  it('whatever characters it holds, ignoring case by Unicode folding', async () => {
    const { api } = await withAccount();
    await api('POST', '/receipts', { body: receiptBody({ model: 'X A.B*(C)[D]/\\E-F Y' }) });
    await api('POST', '/receipts', { body: receiptBody({ model: 'axb' }) });
    await api('POST', '/receipts', { body: receiptBody({ model: 'Ärmel' }) });
    const ids = async (q: string) =>
      (
        (await api('GET', '/search', { query: `q=${encodeURIComponent(q)}&field=model` })).body as Page<Receipt>
      ).data.map((receipt) => receipt.id);
    expect(await ids('a.b*(c)[d]/\\e-f')).toEqual([1]);
    expect(await ids('a.b')).toEqual([1]);
    expect(await ids('ÄRM')).toEqual([3]);
  });
});
