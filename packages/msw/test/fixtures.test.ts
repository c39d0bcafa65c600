import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { receiptBody } from '@fflkit/test-fixtures';
import { signPayload } from '@fflkit/webhooks';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createMockLogbook, MockLogbookError, type MockLogbook, type SandboxFixtures } from '../src/index';
import { createMockLogbook as createWebMockLogbook } from '../src/web';

// The contract's sample receipt, under a serial number of this file's own.
const receiptCreate = receiptBody({ serial_number: 'EXA-000123' });

const BASE_URL = 'https://logbook.example.test/rest/v1';
const ORIGIN = 'https://logbook.example.test';
const FIXTURES_PATH = fileURLToPath(new URL('./support/fixtures.yaml', import.meta.url));
const TOKEN = 'sbx_mswfixture000000000000000001';
const READER = 'sbx_mswfixture000000000000000002';
const IMPORTER = 'sbx_mswfixture000000000000000003';
const SECRET = 'whsec_mswfixture0000000000000000000001';
// A wall clock that stands still, so that what a reset restores can be compared exactly.
const NOW = Date.parse('2025-06-02T12:00:00Z');

/** The YAML file's content as an object: what a browser test would import. */
const fixturesObject = (): SandboxFixtures => parse(readFileSync(FIXTURES_PATH, 'utf8')) as SandboxFixtures;

// Every mock of these tests answers through one server; each test swaps in the handlers of its own.
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'fflkit-msw-fixtures-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes `text` to a file of the scratch folder and answers its path. */
function scratchFile(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

/** Makes a mock and answers requests with its handlers alone. */
function serve(mock: MockLogbook): MockLogbook {
  server.resetHandlers(...mock.handlers);
  return mock;
}

async function call(
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(path.startsWith('/_sandbox') ? `${ORIGIN}${path}` : `${BASE_URL}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

const names = (body: unknown): unknown[] =>
  (body as { data: { name: string; record_count: number }[] }).data.map((book) => [book.name, book.record_count]);

/** The error `make` throws. */
function thrownBy(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('createMockLogbook({ fixtures })', () => {
  it.each([
    ['a fixtures object', () => fixturesObject()],
    ['the path of a YAML file', () => FIXTURES_PATH],
    ['the path of a JSON file', () => scratchFile('fixtures.json', JSON.stringify(fixturesObject()))],
  ])('loads %s before returning: its fixed tokens work at once, with their permissions', async (_case, fixtures) => {
    const mock = serve(createMockLogbook({ baseUrl: BASE_URL, now: () => NOW, fixtures: fixtures() }));

    const books = await call(TOKEN, 'GET', '/books');
    expect(books.status).toBe(200);
    expect(names(books.body)).toEqual([
      ['Main', 2],
      ['Consignment', 1],
    ]);
    const sold = await call(READER, 'GET', '/receipts?serial_number=FIX-000002');
    expect(sold.body).toMatchObject({
      data: [
        {
          record: 2,
          status: 'disposed',
          disposition: { disposition_date: '2025-03-12', form_4473_serial: '2025-000123' },
          documents: [{ name: 'invoice.pdf', size: 1024 }],
          e4473: { transferee_name: 'John Q. Example', nics_result: 'proceed' },
        },
      ],
    });
    expect((await call(READER, 'POST', '/receipts', receiptCreate)).status).toBe(403);
    expect((await call(IMPORTER, 'GET', '/books')).status).toBe(200);
    expect(await mock.clock.now(TOKEN)).toMatchObject({ offset_seconds: 86_400 });
    // Loading fires no webhook.
    expect(mock.deliveries).toEqual([]);
  });

  it('signs the deliveries to a fixture endpoint with its fixed secret', async () => {
    const mock = serve(createMockLogbook({ baseUrl: BASE_URL, fixtures: FIXTURES_PATH }));
    expect((await call(TOKEN, 'POST', '/receipts', receiptCreate)).status).toBe(201);
    expect(mock.deliveries).toHaveLength(1);
    const [delivery] = mock.deliveries;
    expect(delivery?.url).toBe('https://hooks.example.test/in');
    expect(delivery?.headers['X-SVC-Signature']).toBe(await signPayload(SECRET, delivery?.body ?? ''));
  });

  it('answers POST /_sandbox/fixtures with the same file as already loaded: nothing is added', async () => {
    serve(createMockLogbook({ baseUrl: BASE_URL, fixtures: FIXTURES_PATH }));
    const again = await call(TOKEN, 'POST', '/_sandbox/fixtures', fixturesObject());
    expect(again).toEqual({
      status: 200,
      body: {
        data: {
          accounts: [
            { id: 1, name: 'Example Firearms Retail LLC', created: false, tokens: 2, receipts: 0 },
            { id: 2, name: 'Example Imports Inc.', created: false, tokens: 1, receipts: 0 },
          ],
        },
      },
    });
  });

  it('throws a MockLogbookError (422) naming each fault by its path in the file', () => {
    const file = fixturesObject();
    const [retail] = file.accounts;
    const [first, second] = retail?.receipts ?? [];
    const broken: SandboxFixtures = {
      accounts: [
        { ...retail!, receipts: [first!, { ...second!, zip: 'not-a-zip' }], tokens: [{ token: 'sbx_short' }] },
      ],
    };
    const error = thrownBy(() => createMockLogbook({ baseUrl: BASE_URL, fixtures: broken }));
    expect(error).toBeInstanceOf(MockLogbookError);
    expect((error as MockLogbookError).status).toBe(422);
    // Every fault at once: the token's, and the receipt's, checked although the token is at fault.
    expect(Object.keys((error as MockLogbookError & { body: { errors: object } }).body.errors).sort()).toEqual([
      'accounts[0].receipts[1].zip',
      'accounts[0].tokens[0].token',
    ]);
    expect((error as Error).message).toMatch(
      /^\[@fflkit\/msw\] createMockLogbook\(\): the fixtures object was refused \(422\) and nothing was loaded: accounts\[0\]\.tokens\[0\]\.token: must be sbx_/,
    );

    // With valid tokens, the receipt's fault alone, under the receipt's path, from a file too.
    const path = scratchFile(
      'broken.json',
      JSON.stringify({ accounts: [{ ...broken.accounts[0], tokens: [{ token: TOKEN }] }] }),
    );
    const refused = thrownBy(() => createMockLogbook({ baseUrl: BASE_URL, fixtures: path })) as MockLogbookError;
    expect(refused).toBeInstanceOf(MockLogbookError);
    expect(refused.body).toMatchObject({ errors: { 'accounts[0].receipts[1].zip': [expect.any(String)] } });
    expect(refused.message).toContain(`the fixtures file ${path} was refused (422)`);
  });

  it.each([
    [
      'YAML',
      'broken.yaml',
      'accounts:\n  - tokens: [\n',
      /^\[@fflkit\/msw\] createMockLogbook\(\): the fixtures file .*broken\.yaml is not valid YAML: /,
    ],
    [
      'JSON',
      'broken.json',
      '{"accounts": [',
      /^\[@fflkit\/msw\] createMockLogbook\(\): the fixtures file .*broken\.json is not valid JSON: /,
    ],
  ])('throws a MockLogbookError (422, errors.body) for a file that is not valid %s', (format, name, text, message) => {
    const error = thrownBy(() =>
      createMockLogbook({ baseUrl: BASE_URL, fixtures: scratchFile(name, text) }),
    ) as MockLogbookError;
    expect(error).toBeInstanceOf(MockLogbookError);
    expect(error.status).toBe(422);
    expect(error.message).toMatch(message);
    expect(error.body).toEqual({
      message: expect.stringMatching(new RegExp(`^The fixtures file is not valid ${format}: `)),
      errors: { body: [expect.stringMatching(new RegExp(`^is not valid ${format}: `))] },
    });
  });

  it.each([
    ['JSON', 'twice.json', '{"accounts": [{"tokens": [],\n "tokens": []}]}', 'line 2, column 2'],
    ['YAML', 'twice.yaml', 'accounts:\n  - tokens: []\n    tokens: []\n', 'line 3, column 5'],
  ])('throws a MockLogbookError (422) naming a key a %s file gives twice by its path', (_format, name, text, where) => {
    const error = thrownBy(() =>
      createMockLogbook({ baseUrl: BASE_URL, fixtures: scratchFile(name, text) }),
    ) as MockLogbookError;
    expect(error).toBeInstanceOf(MockLogbookError);
    const fault = `is given twice in one object (again at ${where}): give each key once.`;
    expect(error.body).toEqual({
      message: `The fixtures file has a key given twice: accounts[0].tokens ${fault}`,
      errors: { 'accounts[0].tokens': [fault] },
    });
  });

  it('reads a file of another name by its content, as the sandbox does: JSON when it begins with {', async () => {
    const path = scratchFile('fixtures.txt', JSON.stringify(fixturesObject()));
    serve(createMockLogbook({ baseUrl: BASE_URL, fixtures: path }));
    expect((await call(TOKEN, 'GET', '/books')).status).toBe(200);
  });

  it('reads a JSON file that starts with a byte order mark', async () => {
    const path = scratchFile('bom.json', `\uFEFF${JSON.stringify(fixturesObject())}`);
    serve(createMockLogbook({ baseUrl: BASE_URL, fixtures: path }));
    expect((await call(TOKEN, 'GET', '/books')).status).toBe(200);
  });

  it('throws an Error naming the file and the working directory for a file it cannot read', () => {
    const missing = join(scratch, 'missing.yaml');
    const error = thrownBy(() => createMockLogbook({ baseUrl: BASE_URL, fixtures: missing })) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(MockLogbookError);
    expect(error.message).toBe(
      `[@fflkit/msw] createMockLogbook(): there is no fixtures file ${missing}: check the path, which is taken from the working directory (${process.cwd()})`,
    );
    expect(((error.cause as Error).cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it.each([
    [
      'a number',
      42,
      /fixtures must be a fixtures object \(SandboxFixtures\) or, on Node, the path of a \.json, \.yaml or \.yml file; got 42/,
    ],
    ['null', null, /fixtures must be a fixtures object .*; got null/],
  ])('throws a TypeError for %s', (_case, fixtures, message) => {
    const make = () => createMockLogbook({ baseUrl: BASE_URL, fixtures: fixtures as never });
    expect(make).toThrow(TypeError);
    expect(make).toThrow(/^\[@fflkit\/msw\] createMockLogbook\(\): /);
    expect(make).toThrow(message);
  });
});

describe('reset() of a mock made with fixtures', () => {
  it('goes back to the fixtures exactly as loaded, not to an empty mock', async () => {
    const mock = serve(createMockLogbook({ baseUrl: BASE_URL, now: () => NOW, fixtures: FIXTURES_PATH }));
    const loaded = await mock.exportFixtures(TOKEN);
    const receipts = await call(TOKEN, 'GET', '/receipts');

    const { token: other } = mock.createAccount();
    const [first] = (receipts.body as { data: { id: number }[] }).data;
    expect((await call(TOKEN, 'DELETE', `/receipts/${first!.id}`)).status).toBe(204);
    expect((await call(TOKEN, 'POST', '/receipts', receiptCreate)).status).toBe(201);
    await mock.clock.advance(TOKEN, 3600);
    expect(mock.deliveries).toHaveLength(2);

    mock.reset();

    expect(mock.deliveries).toEqual([]);
    expect((await call(other, 'GET', '/books')).status).toBe(401);
    expect(await call(TOKEN, 'GET', '/receipts')).toEqual(receipts);
    expect(await mock.exportFixtures(TOKEN)).toEqual(loaded);
    expect(await mock.clock.now(TOKEN)).toMatchObject({ offset_seconds: 86_400 });
    // The ids go on from the fixtures: the first account made after a reset is the third.
    expect(mock.createAccount().account.id).toBe(3);
  });
});

describe('exportFixtures(token)', () => {
  it('answers the account as a fixtures object that makes the same account in another mock', async () => {
    const first = serve(createMockLogbook({ baseUrl: BASE_URL, now: () => NOW, fixtures: FIXTURES_PATH }));
    expect((await call(TOKEN, 'POST', '/receipts', receiptCreate)).status).toBe(201);
    const exported = await first.exportFixtures(TOKEN);
    expect(exported.accounts).toHaveLength(1);
    expect(exported.accounts[0]?.tokens).toEqual([
      { token: TOKEN, name: 'CI', permissions: ['read', 'write', 'delete'] },
    ]);
    expect(exported.accounts[0]?.webhooks).toEqual([
      { url: 'https://hooks.example.test/in', events: ['*'], secret: SECRET },
    ]);
    expect(exported.accounts[0]?.receipts?.map((receipt) => receipt.serial_number)).toEqual([
      'FIX-000001',
      'FIX-000002',
      'FIX-000003',
      'EXA-000123',
    ]);
    const books = await call(TOKEN, 'GET', '/books');

    const second = serve(createMockLogbook({ baseUrl: BASE_URL, now: () => NOW, fixtures: exported }));
    expect(await second.exportFixtures(TOKEN)).toEqual(exported);
    expect(await call(TOKEN, 'GET', '/books')).toEqual(books);
  });

  it('rejects with a MockLogbookError (401) for a token the mock does not hold', async () => {
    const mock = serve(createMockLogbook({ baseUrl: BASE_URL }));
    const error = await mock.exportFixtures(TOKEN).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MockLogbookError);
    expect((error as MockLogbookError).status).toBe(401);
    expect((error as MockLogbookError).message).toMatch(/^\[@fflkit\/msw\] GET \/_sandbox\/fixtures answered 401: /);
  });
});

describe('createMockLogbook({ fixtures }) of the web build', () => {
  it('loads a fixtures object', async () => {
    serve(createWebMockLogbook({ baseUrl: BASE_URL, fixtures: fixturesObject() }));
    expect((await call(TOKEN, 'GET', '/books')).status).toBe(200);
  });

  it('throws a TypeError for a path, which only the Node build reads', () => {
    const make = () => createWebMockLogbook({ baseUrl: BASE_URL, fixtures: FIXTURES_PATH });
    expect(make).toThrow(TypeError);
    expect(make).toThrow(
      /^\[@fflkit\/msw\] createMockLogbook\(\): fixtures is a path \(".*fixtures\.yaml"\), which only the Node build reads; in a browser, pass the fixtures object itself/,
    );
  });
});
