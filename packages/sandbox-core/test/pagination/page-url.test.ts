import { describe, expect, it } from 'vitest';
import { pageUrl } from '../../src/pagination/page-url';

describe('pageUrl(path, query, page)', () => {
  const path = 'http://localhost/rest/v1/receipts';

  it('sets page in place and keeps the rest of the query as written', () => {
    expect(pageUrl(path, 'page=2&since=2025-03-01T00%3A00%3A00%2B01%3A00', 3)).toBe(
      `${path}?page=3&since=2025-03-01T00%3A00%3A00%2B01%3A00`,
    );
    expect(pageUrl(path, 'pa%67e=2&q=a+b', 1)).toBe(`${path}?page=1&q=a+b`);
  });

  it('appends page when the query has none', () => {
    expect(pageUrl(path, '', 1)).toBe(`${path}?page=1`);
    expect(pageUrl(path, 'status=on_hand&%E0=1', 2)).toBe(`${path}?status=on_hand&%E0=1&page=2`);
  });
});
