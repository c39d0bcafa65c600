import { request } from 'node:http';
import { startSandbox } from '@fflkit/sandbox';
import { receiptBody } from '@fflkit/test-fixtures';
import type { SandboxRequestLogEntry } from '@fflkit/types';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';

// Fuzzing of the HTTP face: what the transport sees before the core does (methods, paths,
// content types, header values, body sizes and encodings). Never a 5xx, and every error is the
// contract's JSON error body.

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let token: string;
/** A token of an account whose requests meet fault rules: statuses, drops and delays, before and after acting. */
let faultedToken: string;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: 0 });
  token = (await sandbox.createAccount()).token;
  faultedToken = (await sandbox.createAccount()).token;
  const seed = Number(process.env['FUZZ_SEED'] ?? 17);
  await sandbox.faults.add(faultedToken, { action: 'status', status: 503, retry_after: 1, probability: 0.2, seed });
  await sandbox.faults.add(faultedToken, {
    method: 'POST',
    action: 'drop',
    after_acting: true,
    probability: 0.3,
    seed: seed + 1,
  });
  await sandbox.faults.add(faultedToken, { action: 'drop', probability: 0.15, seed: seed + 2 });
  await sandbox.faults.add(faultedToken, {
    action: 'status',
    status: 502,
    after_acting: true,
    probability: 0.3,
    seed: seed + 3,
  });
  await sandbox.faults.add(faultedToken, {
    method: 'GET',
    action: 'delay',
    delay_ms: 2,
    probability: 0.5,
    seed: seed + 4,
  });
});
afterAll(async () => {
  await sandbox?.stop();
});

interface RawAnswer {
  status: number;
  contentType: string | undefined;
  text: string;
}

function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
): Promise<RawAnswer> {
  return sendRaw(method, path, headers, body).then((answer) => {
    if (answer === 'dropped') throw new Error(`${method} ${path}: the connection closed without an answer`);
    return answer;
  });
}

/** Sends one request on a connection of its own; `'dropped'` when the connection closed without an answer. */
function sendRaw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
): Promise<RawAnswer | 'dropped'> {
  const { hostname, port } = new URL(sandbox.url);
  return new Promise((resolve, reject) => {
    let answered = false;
    // A connection per request: Node sends the body of a DELETE or OPTIONS unframed (neither a
    // length nor chunks), so the server reads it as the next request on the connection and
    // answers it 400; on a shared connection, that answer would be taken for the next request's.
    const req = request({ hostname, port, method, path, headers, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'],
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    // A server may answer (413) and close before an oversized body is fully sent; the answer is
    // what counts, and the write error that follows it is expected.
    req.on('error', (error: Error & { code?: string }) => {
      if (answered) return;
      if (error.code === 'ECONNRESET' || error.message === 'socket hang up') resolve('dropped');
      else reject(error);
    });
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A body, described compactly so that a failing case prints short. */
type BodySpec = { text: string } | { bytes: number[] } | { spaces: number } | { nested: number } | undefined;

function bodyBytes(spec: BodySpec): Buffer | undefined {
  if (spec === undefined) return undefined;
  if ('text' in spec) return Buffer.from(spec.text);
  if ('bytes' in spec) return Buffer.from(spec.bytes);
  if ('spaces' in spec) return Buffer.alloc(spec.spaces, 0x20);
  return Buffer.from('['.repeat(spec.nested) + ']'.repeat(spec.nested));
}

const paths = fc.oneof(
  fc.constantFrom(
    '/rest/v1/receipts',
    '/rest/v1/receipts/1',
    '/rest/v1/receipts/1/dispose',
    '/rest/v1/books',
    '/rest/v1/search?q=a',
    '/rest/v1/webhooks',
    '/_sandbox/accounts',
    '/_sandbox/tokens',
    '/_sandbox/clock/advance',
    '/rest/v1',
    '/',
    '/rest/v2/receipts',
    '/rest/v1/receipts/%00',
    '/rest/v1/receipts/..%2f..%2fetc',
    '/rest/v1//receipts',
    '/rest/v1/receipts?page[]=1',
    '/rest/v1/receipts?%zz',
  ),
  fc.webPath().map((p) => `/rest/v1${p.startsWith('/') ? p : `/${p}`}`),
);

const bodies: fc.Arbitrary<BodySpec> = fc.oneof(
  fc.constant(undefined),
  fc.json().map((text) => ({ text })),
  fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }).map((bytes) => ({ bytes })),
  fc.constant({ text: JSON.stringify(receiptBody()) }),
  fc.constant({ text: '\uFEFF{"book":"Main"}' }),
  fc.constant({ spaces: 1_048_577 }),
  fc.integer({ min: 1, max: 5000 }).map((nested) => ({ nested })),
);

it('never answers 5xx, and every error is a JSON body with a message', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
      paths,
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/gzip',
        '',
      ),
      fc.constantFrom(`Bearer ${token}`, 'Bearer', `bearer  ${'x'.repeat(300)}`, '', 'Basic x'),
      fc.constantFrom(
        {},
        { 'content-encoding': 'gzip' },
        { 'accept-encoding': 'gzip' },
        { 'x-forwarded-proto': 'javascript' },
        { host: 'bad host' },
      ),
      bodies,
      async (method, path, contentType, authorization, extra, body) => {
        const headers: Record<string, string> = { ...extra, authorization };
        if (contentType !== '') headers['content-type'] = contentType;
        const answer = await send(
          method,
          path,
          headers,
          method === 'GET' || method === 'HEAD' ? undefined : bodyBytes(body),
        );
        expect(answer.status).toBeGreaterThanOrEqual(200);
        expect(answer.status).toBeLessThan(500);
        if (answer.status >= 400 && method !== 'HEAD') {
          expect(answer.contentType).toMatch(/^application\/json/);
          expect(JSON.parse(answer.text)).toEqual(expect.objectContaining({ message: expect.any(String) }));
        }
      },
    ),
    { numRuns: 400 },
  );
});

it('with fault rules on the account: only a faulted request fails or is dropped, and the log says which rule', async () => {
  const kinds = new Set<string>();
  await fc.assert(
    fc.asyncProperty(
      // Weighted towards requests that succeed, so that the rules after acting meet them.
      fc.oneof({ arbitrary: fc.constant('POST'), weight: 3 }, fc.constantFrom('GET', 'PUT', 'DELETE', 'HEAD')),
      fc.oneof({ arbitrary: fc.constantFrom('/rest/v1/receipts', '/rest/v1/books'), weight: 3 }, paths),
      fc.oneof({ arbitrary: fc.constant(`Bearer ${faultedToken}`), weight: 4 }, fc.constantFrom('Bearer sbx_nope', '')),
      fc.oneof(
        { arbitrary: fc.constant({ text: JSON.stringify(receiptBody()) }), weight: 3 },
        { arbitrary: bodies, weight: 1 },
      ),
      async (method, path, authorization, body) => {
        const headers: Record<string, string> = { authorization, 'content-type': 'application/json' };
        const answer = await sendRaw(
          method,
          path,
          headers,
          method === 'GET' || method === 'HEAD' ? undefined : bodyBytes(body),
        );
        // Requests go one at a time, so the newest entry of the account's log is this request's, if it reached the core.
        const log = await fetch(`${sandbox.url}/_sandbox/requests`, {
          headers: { authorization: `Bearer ${faultedToken}` },
        });
        const [latest] = ((await log.json()) as { data: SandboxRequestLogEntry[] }).data;
        if (answer === 'dropped') {
          expect(latest).toMatchObject({ method, status: 0, fault: { action: 'drop' } });
          kinds.add(`drop${latest?.fault?.after_acting ? ' after acting' : ''}`);
          return;
        }
        expect(answer.status).toBeGreaterThanOrEqual(200);
        if (answer.status >= 500) {
          expect(authorization).toBe(`Bearer ${faultedToken}`);
          expect(latest).toMatchObject({ status: answer.status, fault: { action: 'status' } });
          if (method !== 'HEAD')
            expect(JSON.parse(answer.text)).toEqual({
              message: expect.stringMatching(/^Injected by the sandbox's fault rule \d+: /),
            });
          kinds.add(`${answer.status}${latest?.fault?.after_acting ? ' after acting' : ''}`);
        }
        if (answer.status >= 400 && method !== 'HEAD')
          expect(JSON.parse(answer.text)).toEqual(expect.objectContaining({ message: expect.any(String) }));
      },
    ),
    { numRuns: 300 },
  );
  expect([...kinds].sort()).toEqual(['502 after acting', '503', 'drop', 'drop after acting']);
});
