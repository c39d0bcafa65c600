import { describe, expect, it } from 'vitest';
import { errorsOf, withAccount, dataOf, dispositionBody, receiptBody } from '../harness/harness';

describe('POST /_sandbox/books', () => {
  it('adds an empty book and refuses a name the account has', async () => {
    const { control } = await withAccount();
    const response = await control('POST', '/books', { body: { name: ' Consignment ' } });
    expect(response).toEqual({
      status: 201,
      headers: {},
      body: {
        data: {
          id: 2,
          name: 'Consignment',
          record_count: 0,
          on_hand_count: 0,
          disposed_count: 0,
          created_at: '2025-03-14T15:04:05Z',
        },
      },
    });
    expect((await control('POST', '/books', { body: { name: 'Consignment' } })).body).toEqual({
      message: 'The name has already been taken.',
      errors: { name: ['The name has already been taken.'] },
    });
    expect(errorsOf(await control('POST', '/books', { body: { name: 'x'.repeat(101) } }))).toEqual({
      name: ['The name field must not be greater than 100 characters.'],
    });
  });
});

describe('GET /rest/v1/books', () => {
  it('lists the books by id with counts of live receipts, unpaginated', async () => {
    const { api, control } = await withAccount({ books: ['Consignment'] });
    await control('POST', '/books', { body: { name: 'Repairs' } });
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts', { body: receiptBody({ book: 'Consignment' }) });
    await api('POST', '/receipts/2/dispose', { body: dispositionBody() });
    const response = await api('GET', '/books');
    expect(response.body).toEqual({
      data: [
        {
          id: 1,
          name: 'Main',
          record_count: 2,
          on_hand_count: 1,
          disposed_count: 1,
          created_at: '2025-03-14T15:04:05Z',
        },
        {
          id: 2,
          name: 'Consignment',
          record_count: 1,
          on_hand_count: 1,
          disposed_count: 0,
          created_at: '2025-03-14T15:04:05Z',
        },
        {
          id: 3,
          name: 'Repairs',
          record_count: 0,
          on_hand_count: 0,
          disposed_count: 0,
          created_at: '2025-03-14T15:04:05Z',
        },
      ],
    });
    expect(dataOf(response)).toHaveLength(3);
  });
});

describe('GET /_sandbox/books', () => {
  it('lists the books as GET /books does, without the rate limit', async () => {
    const { api, control } = await withAccount({ books: ['Consignment'] }, { rateLimit: 1 });
    const fromApi = await api('GET', '/books');
    expect((await control('GET', '/books')).body).toEqual(fromApi.body);
    expect((await control('GET', '/books')).status).toBe(200);
  });
});
