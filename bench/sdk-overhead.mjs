// SDK overhead: time per call of `logbook.receipts.get(id)` with a stub `fetch` (no network), against
// the same call made with bare `fetch` plus `response.json()`, and with bare openapi-fetch. The
// difference is what the SDK costs per call: time-out timer, abort wiring, limiter, retry policy,
// error mapping, unwrapping. Calls run one after another; each figure is the median of rounds.
// Target (shared/DESIGN.md): overhead under 15 microseconds per call over both.
import { receiptResource } from '@fflkit/test-fixtures';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { num, printHeading, printNote, printTable, printTargets, progress, ratio, target } from './report.mjs';

export const description = 'per-call overhead of @fflkit/sdk over bare fetch and bare openapi-fetch (stub fetch)';

const SDK_DIR = fileURLToPath(new URL('../packages/sdk/', import.meta.url));
const SDK_ENTRY = `${SDK_DIR}dist/index.js`;
const BASE_URL = 'https://logbook.example.com/rest/v1';
const CALLS = 20_000;
const ROUNDS = 9;
const LIMIT_US = 15;
const BODY = JSON.stringify({ data: receiptResource() });

/** The stub every variant calls: a fresh JSON response, as a server would give. */
const stubFetch = async () => new Response(BODY, { status: 200, headers: { 'Content-Type': 'application/json' } });

/** Microseconds per call of `call` over one round of CALLS sequential calls. */
async function round(call) {
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await call();
  return ((performance.now() - started) * 1000) / CALLS;
}

/**
 * Rounds of every variant in turn (so that other work on the machine weighs on all of them
 * alike), after a warm-up; each variant's figure is its median round.
 */
async function measure(variants) {
  for (const [, call] of variants) for (let i = 0; i < CALLS / 4; i++) await call();
  const rounds = variants.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [index, [, call]] of variants.entries()) rounds[index].push(await round(call));
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return Object.fromEntries(variants.map(([name], index) => [name, median(rounds[index])]));
}

export async function run() {
  printHeading(
    'SDK overhead per call',
    `GET /receipts/{id} with a stub fetch, ${num(CALLS)} sequential calls per round, median of ${ROUNDS} interleaved rounds (microseconds per call).`,
  );
  if (!existsSync(SDK_ENTRY)) {
    printNote('packages/sdk/dist is missing: run `pnpm --filter @fflkit/sdk build` first.');
    printTargets([target(`overhead < ${LIMIT_US} us per call`, NaN, '<', LIMIT_US, { unmeasured: 'SDK not built' })]);
    return { failures: ['sdk-overhead: @fflkit/sdk is not built'] };
  }
  const { LogbookClient } = await import(pathToFileURL(SDK_ENTRY).href);
  const openapiFetch = createRequire(SDK_DIR)
    .resolve('openapi-fetch/package.json')
    .replace(/package\.json$/, 'dist/index.mjs');
  const { default: createClient } = await import(pathToFileURL(openapiFetch).href);

  const headers = { Authorization: 'Bearer sbx_token' };
  const client = createClient({ baseUrl: BASE_URL, fetch: stubFetch, headers });
  const sdk = new LogbookClient({ token: 'sbx_bench', baseUrl: BASE_URL, fetch: stubFetch, rateLimit: false });
  const limited = new LogbookClient({
    token: 'sbx_bench_limited',
    baseUrl: BASE_URL,
    fetch: stubFetch,
    rateLimit: { perMinute: 1_000_000 },
  });
  const variants = [
    [
      'bare fetch + json()',
      () => stubFetch(`${BASE_URL}/receipts/1042`, { headers }).then((response) => response.json()),
    ],
    ['bare openapi-fetch', () => client.GET('/receipts/{id}', { params: { path: { id: 1042 } } })],
    ['@fflkit/sdk, limiter off', () => sdk.receipts.get(1042)],
    ['@fflkit/sdk, limiter on', () => limited.receipts.get(1042)],
  ];
  progress(`measuring ${variants.length} variants, ${ROUNDS} rounds each`);
  const times = await measure(variants);
  const bareFetch = times['bare fetch + json()'];
  const bareClient = times['bare openapi-fetch'];
  printTable(
    [
      'variant',
      'us per call',
      'vs bare fetch',
      'vs openapi-fetch',
      'overhead over bare fetch (us)',
      'overhead over openapi-fetch (us)',
    ],
    Object.entries(times).map(([name, us]) => [
      name,
      num(us, 2),
      ratio(us, bareFetch),
      ratio(us, bareClient),
      num(us - bareFetch, 2),
      num(us - bareClient, 2),
    ]),
  );
  printNote('the default client keeps the limiter on; "limiter on" lifts its budget so that it never waits.');
  const worst = Math.max(times['@fflkit/sdk, limiter off'], times['@fflkit/sdk, limiter on']);
  const show = (v) => `${num(v, 2)} us`;
  printTargets([
    target(`overhead over bare fetch < ${LIMIT_US} us per call`, worst - bareFetch, '<', LIMIT_US, { show }),
    target(`overhead over bare openapi-fetch < ${LIMIT_US} us per call`, worst - bareClient, '<', LIMIT_US, { show }),
  ]);
  return { failures: [] };
}
