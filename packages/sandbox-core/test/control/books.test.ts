import { describe, expect, it } from 'vitest';
import { errorsOf, withAccount } from '../support/harness';

describe('POST /_sandbox/books', () => {
  it('adds an empty book and refuses a name the account has', async () => {
    const { control } = await withAccount();
    const response = await control('POST', '/books', { body: { name: ' Consignment ' } });
    expect(response).toEqual({
      status: 201,
      headers: {},
      body: {
        data: { id: 2, name: 'Consignment', record_count: 0, on_hand_count: 0, disposed_count: 0, created_at: '2025-03-14T15:04:05Z' },
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
