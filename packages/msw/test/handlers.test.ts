import { receiptBody } from '@fflkit/test-fixtures';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockLogbook } from '../src/index';

// The contract's sample receipt, under a serial number of this file's own.
const receiptCreate = receiptBody({ serial_number: 'EXA-000123' });

const ORIGIN = 'https://logbook.example.test';
const BASE_URL = `${ORIGIN}/rest/v1`;
const mock = createMockLogbook({ baseUrl: BASE_URL });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

describe('mock.handlers', () => {
  // What the handlers took when they were MSW paths: the base URL, everything under it, and
  // everything under /_sandbox/ of its origin, as MSW matches paths (case-insensitive, the query
  // and fragment left out, a trailing slash allowed).
  const paths = [
    http.all(BASE_URL, () => undefined),
    http.all(`${BASE_URL}/*`, () => undefined),
    http.all(`${ORIGIN}/_sandbox/*`, () => undefined),
  ];
  const urls = [
    BASE_URL,
    `${BASE_URL}/`,
    `${BASE_URL}/receipts`,
    `${BASE_URL}/receipts/12/dispose?x=1#top`,
    `${BASE_URL}/re%20ceipts`,
    `${ORIGIN}/REST/V1/books`,
    `${ORIGIN}/rest/v1?page=2`,
    `${BASE_URL}x`,
    `${BASE_URL}x/receipts`,
    `${ORIGIN}/rest/v2/books`,
    `${ORIGIN}/`,
    `${ORIGIN}/_sandbox`,
    `${ORIGIN}/_sandbox/`,
    `${ORIGIN}/_sandbox/clock/advance`,
    `${ORIGIN}/_SANDBOX/clock`,
    `${ORIGIN}/_sandboxes/clock`,
    `${ORIGIN}/api/rest/v1/books`,
    'http://logbook.example.test/rest/v1/books',
    'https://logbook.example.test:8443/rest/v1/books',
    'https://other.fflkit.test/rest/v1/books',
    'https://other.fflkit.test/_sandbox/clock',
  ];
  const takes = async (
    handlers: readonly { test(args: { request: Request }): Promise<boolean> }[],
    url: string,
    method: string,
  ) => {
    for (const handler of handlers) if (await handler.test({ request: new Request(url, { method }) })) return true;
    return false;
  };

  it.each(['GET', 'POST', 'DELETE'])(
    'take exactly the %s requests that the paths of the service and its control API take',
    async (method) => {
      const expected = await Promise.all(urls.map((url) => takes(paths, url, method)));
      // The list is no tautology: it holds URLs of both kinds.
      expect(expected.filter(Boolean)).toHaveLength(10);
      expect(await Promise.all(urls.map((url) => takes(mock.handlers, url, method)))).toEqual(expected);
    },
  );

  it('answer a list again after a change, not the text of the page before it', async () => {
    const { token } = mock.createAccount();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const list = async () =>
      ((await (await fetch(`${BASE_URL}/receipts`, { headers })).json()) as { data: unknown[] }).data.length;
    expect(await list()).toBe(0);
    expect(await list()).toBe(0);
    expect(
      (await fetch(`${BASE_URL}/receipts`, { method: 'POST', headers, body: JSON.stringify(receiptCreate) })).status,
    ).toBe(201);
    expect(await list()).toBe(1);
    const [first, second] = await Promise.all([
      fetch(`${BASE_URL}/receipts`, { headers }),
      fetch(`${BASE_URL}/receipts`, { headers }),
    ]);
    expect(await first.text()).toBe(await second.text());
  });
});
