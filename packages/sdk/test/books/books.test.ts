import { AuthenticationError } from '@boundbook/sdk';
import type { Book } from '@boundbook/types';
import { describe, expect, it } from 'vitest';
import { json } from '../support/stub-fetch';
import { testClient } from '../support/test-client';

const main: Book = { id: 1, name: 'Main', record_count: 3, on_hand_count: 2, disposed_count: 1, created_at: '2025-03-01T10:00:00Z' };

describe('bb.books', () => {
  it('list() resolves with the books, unwrapped', async () => {
    const { bb, calls } = testClient([json(200, { data: [main] })]);
    await expect(bb.books.list()).resolves.toEqual([main]);
    expect([calls[0]?.method, calls[0]?.url.pathname]).toEqual(['GET', '/rest/v1/books']);
  });

  it('list() throws AuthenticationError for a 401', async () => {
    const { bb } = testClient([json(401, { message: 'Unauthenticated.' }, { 'WWW-Authenticate': 'Bearer' })]);
    await expect(bb.books.list()).rejects.toBeInstanceOf(AuthenticationError);
  });
});
