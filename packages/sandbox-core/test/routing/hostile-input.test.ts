import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/routing/routes';
import { dispositionBody, receiptBody, withAccount } from '../harness/harness';

const FIELDS = [
  ...Object.keys(receiptBody()),
  ...Object.keys(dispositionBody()),
  'address',
  'city',
  'state',
  'zip',
  'importer',
  'country_of_origin',
  'url',
  'events',
  'permissions',
  'name',
  'books',
  'account_type',
  'seconds',
  'mime_type',
  'size',
  'transferee_name',
  'nics_result',
  'completed_at',
  'nics_transaction_number',
];
const VALUES: unknown[] = [
  null,
  '',
  '   ',
  0,
  -1,
  1.005,
  1e308,
  true,
  [],
  ['*', '*'],
  {},
  { a: [1] },
  'x'.repeat(300),
  '\uD800',
  '2025-02-30',
  '9999-12-31',
  '2025-03-14T15:04:05+25:00',
  '*',
  'Main',
];
const DEEP = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
const BODIES: (string | undefined)[] = [
  undefined,
  '',
  '{',
  'null',
  '[]',
  '"text"',
  '1e999',
  '\uFEFF',
  DEEP,
  `{"events":[${DEEP},${DEEP}],"permissions":[${DEEP},${DEEP}],"books":[${DEEP},${DEEP}]}`,
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
  ...VALUES.map((value) => JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, value])))),
];
const QUERIES = [
  '',
  'page=0',
  'page=a&page=b',
  'per_page=1e2',
  'since=%ZZ',
  'q=%00&field=__proto__',
  '__proto__=1',
  'q=(a[b{c\\',
  'status=on_hand&book=Main&serial_number=.*&manufacturer=%2B&since=2025-01-01T00:00:00%2B00:00',
];

describe('hostile input on every route', () => {
  it('never rejects, never answers 5xx, answers errors as { message }, and changes nothing on error', async () => {
    const { call, core, token } = await withAccount({}, { rateLimit: 0 });
    await call('POST', '/rest/v1/receipts', { token, body: receiptBody() });
    for (const route of ROUTES) {
      if (route.path.endsWith('/reset') || route.method === 'DELETE') continue;
      const path = route.path.replace(':id', '1');
      for (const rawBody of BODIES) {
        for (const query of route.method === 'GET' ? QUERIES : ['']) {
          const before = JSON.stringify(core.snapshot());
          const response = await call(route.method, path, {
            token,
            query,
            ...(rawBody === undefined ? {} : { rawBody }),
          });
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) {
            expect(response.body).toMatchObject({ message: expect.any(String) });
            expect(JSON.stringify(core.snapshot())).toBe(before);
          }
        }
      }
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    // Thousands of calls, each between two snapshots of the state: about 2.5 s alone, twice that
    // on a loaded machine, past the default time-out.
  }, 30_000);
});
