import { describe, expect, it } from 'vitest';
import { errorsOf, harness } from '../support/harness';

describe('POST /_sandbox/accounts', () => {
  it('needs no token and answers 201 with a dealer account named by default and its token', async () => {
    const { call } = harness();
    const response = await call('POST', '/_sandbox/accounts');
    expect(response.status).toBe(201);
    expect(response.headers).toEqual({});
    expect(response.body).toEqual({
      data: { id: 1, name: 'Sandbox account', account_type: 'dealer', created_at: '2025-03-14T15:04:05Z' },
      token: expect.stringMatching(/^sbx_[A-Za-z0-9]{32}$/),
    });
  });

  it('validates the type, name and books', async () => {
    const { call } = harness();
    const response = await call('POST', '/_sandbox/accounts', {
      body: { account_type: 'pawnbroker', name: '', books: ['Repairs', ' Repairs', 'Main', 7] },
    });
    expect(errorsOf(response)).toEqual({
      account_type: ['The selected account type is invalid.'],
      name: ['The name field must not be empty.'],
      'books.3': ['The books.3 field must be a string.'],
    });
    const books = await call('POST', '/_sandbox/accounts', { body: { books: ['Repairs', ' Repairs', 'Main'] } });
    expect(errorsOf(books)).toEqual({
      'books.1': ['The books.1 field has a duplicate value.'],
      'books.2': ['The books.2 field must not be Main, which every account has.'],
    });
    const many = await call('POST', '/_sandbox/accounts', { body: { books: Array.from({ length: 51 }, (_, n) => `B${n}`) } });
    expect(errorsOf(many)).toEqual({ books: ['The books field must not have more than 50 items.'] });
  });
});
