// MSW mock overhead: time per SDK call answered by @fflkit/msw under msw/node's setupServer,
// against the same call answered by a static MSW handler that returns the same bytes (status,
// headers and body captured from the mock's own answer), for a list (`logbook.receipts.list()`, a page
// of 25) and a create (`logbook.receipts.create()`). Both run in this process under one server: what
// differs is only the handler, so the ratio is what the mock costs over MSW itself (request
// conversion, the core, response building). Rounds of the variants are interleaved, each round
// starting with another variant, after a warm-up round; each figure is the median of the rounds.
// Time is the process's CPU time (every thread, the garbage collector's included), which other
// work on a shared machine does not inflate as it does wall time; wall time is shown beside it.
// Create is also measured in accounts of 100 and of 10,000 receipts, beside the same static
// handler: a create that costs more in the larger account does work in proportion to the account.
// Target (shared/DESIGN.md): the mock at most 1.25x the static handler, for both calls.
import { numberedReceiptBody } from '@fflkit/test-fixtures';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { num, printHeading, printNote, printTable, printTargets, progress, target, times } from './report.mjs';

export const description =
  'us per SDK call answered by @fflkit/msw vs a static MSW handler with the same bytes (list, create)';

const MSW_PACKAGE_DIR = fileURLToPath(new URL('../packages/msw/', import.meta.url));
const MOCK_ENTRY = join(MSW_PACKAGE_DIR, 'dist', 'index.js');
const SDK_ENTRY = fileURLToPath(new URL('../packages/sdk/dist/index.js', import.meta.url));
const BASE_URL = 'https://logbook.example.test/rest/v1';
const PAGE = 25;
const CALLS = 400;
const ROUNDS = 15;
const TARGET_RATIO = 1.25;
/**
 * The account sizes at which create is measured apart, each in an account of its own: the small
 * one is emptied and seeded again before each of its rounds, so that its creates run at 100 to
 * 100 + CALLS receipts; the large one grows by CALLS per round. A create that costs more in the
 * large account does work in proportion to the account somewhere on its path.
 */
const SMALL_ACCOUNT = 100;
const LARGE_ACCOUNT = 10_000;

export async function run() {
  printHeading(
    'MSW mock overhead',
    `An SDK call answered by @fflkit/msw under setupServer vs by a static MSW handler returning the same bytes: ` +
      `${num(CALLS)} sequential calls per round, median of ${ROUNDS} interleaved rounds after a warm-up round ` +
      '(microseconds of CPU time per call, all threads of the process).',
  );
  const missing = [MOCK_ENTRY, SDK_ENTRY].filter((file) => !existsSync(file));
  if (missing.length > 0) {
    printNote(`not built: ${missing.join(', ')} (pnpm build).`);
    printTargets(
      ['list', 'create'].map((call) =>
        target(`${call}: mock within ${TARGET_RATIO}x of a static handler`, NaN, '<=', TARGET_RATIO, {
          unmeasured: 'not built',
        }),
      ),
    );
    return { failures: ['msw-overhead: @fflkit/msw or @fflkit/sdk is not built'] };
  }
  const { http, HttpResponse, setupServer } = await loadMsw();
  const { createMockLogbook } = await import(pathToFileURL(MOCK_ENTRY).href);
  const { LogbookClient } = await import(pathToFileURL(SDK_ENTRY).href);

  // The rate limit is lifted so that every round answers 200 or 201; no endpoint, so no delivery.
  const mock = createMockLogbook({ baseUrl: BASE_URL, rateLimit: 0 });
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const { token } = mock.createAccount();
    const logbook = new LogbookClient({ baseUrl: BASE_URL, token, rateLimit: false, maxRetries: 0 });
    for (let n = 1; n <= PAGE; n += 1) await logbook.receipts.create(numberedReceiptBody(n));
    const created = numberedReceiptBody(PAGE + 1);
    const small = await sizedAccount(mock, LogbookClient, SMALL_ACCOUNT);
    const large = await sizedAccount(mock, LogbookClient, LARGE_ACCOUNT);

    // The bytes the static handlers answer with: the mock's own answers to the same calls.
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const listAnswer = await recordAnswer(fetch(`${BASE_URL}/receipts`, { headers }));
    const createAnswer = await recordAnswer(
      fetch(`${BASE_URL}/receipts`, { method: 'POST', headers, body: JSON.stringify(created) }),
    );
    const staticList = http.get(`${BASE_URL}/receipts`, () => new HttpResponse(listAnswer.body, listAnswer.init));
    const staticCreate = http.post(
      `${BASE_URL}/receipts`,
      () => new HttpResponse(createAnswer.body, createAnswer.init),
    );
    // The same, reading the request's body first, as any handler that judges a write must: how
    // much of the create's gap is MSW's handing over of the body rather than the mock's work.
    const readingCreate = http.post(`${BASE_URL}/receipts`, async ({ request }) => {
      await request.arrayBuffer();
      return new HttpResponse(createAnswer.body, createAnswer.init);
    });

    const variants = [
      { call: 'list', name: '@fflkit/msw', handlers: mock.handlers, run: () => logbook.receipts.list() },
      { call: 'list', name: 'static MSW handler', handlers: [staticList], run: () => logbook.receipts.list() },
      { call: 'create', name: '@fflkit/msw', handlers: mock.handlers, run: () => logbook.receipts.create(created) },
      {
        call: 'create',
        name: 'static MSW handler',
        handlers: [staticCreate],
        run: () => logbook.receipts.create(created),
      },
      {
        call: 'create',
        name: 'static, reading the body',
        handlers: [readingCreate],
        run: () => logbook.receipts.create(created),
        reference: true,
      },
      {
        call: 'create',
        name: `@fflkit/msw, account of ${num(SMALL_ACCOUNT)}`,
        handlers: mock.handlers,
        before: small.refill,
        run: () => small.logbook.receipts.create(created),
        sized: small,
      },
      {
        call: 'create',
        name: `@fflkit/msw, account of ${num(LARGE_ACCOUNT)}`,
        handlers: mock.handlers,
        run: () => large.logbook.receipts.create(created),
        sized: large,
      },
    ];
    // Each answer is checked once per variant, so that a variant that stopped answering like the
    // mock cannot pass for a fast one.
    for (const variant of variants) {
      server.resetHandlers(...variant.handlers);
      const answer = await variant.run();
      const expected = variant.call === 'list' ? PAGE : created.serial_number;
      const got = variant.call === 'list' ? answer.data.length : answer.serial_number;
      if (got !== expected)
        throw new Error(
          `${variant.call}, ${variant.name}: answered ${JSON.stringify(got)}, not ${JSON.stringify(expected)}`,
        );
      variant.samples = [];
      variant.wall = [];
    }

    progress(`${variants.length} variants, ${ROUNDS} rounds of ${num(CALLS)} calls each`);
    for (let round = 0; round <= ROUNDS; round += 1) {
      const order = variants.map((_, index) => variants[(index + round) % variants.length]);
      for (const variant of order) {
        server.resetHandlers(...variant.handlers);
        await variant.before?.();
        const { cpu, wall } = await timeCalls(variant.run);
        // Round 0 warms the JIT up; it is not counted.
        if (round > 0) {
          variant.samples.push(cpu);
          variant.wall.push(wall);
        }
      }
    }

    const rows = [];
    const targets = [];
    const notes = [];
    for (const call of ['list', 'create']) {
      const [ours, bare, reading] = variants.filter((variant) => variant.call === call && variant.sized === undefined);
      const ratio = median(ours.samples) / median(bare.samples);
      // The ratio within each round (the two variants ran side by side): its spread shows the noise.
      const perRound = ours.samples.map((sample, index) => sample / bare.samples[index]);
      for (const variant of [ours, bare]) {
        rows.push([
          `${call}: ${variant.name}`,
          num(median(variant.samples), 1),
          `${num(quantile(variant.samples, 0.25), 0)}-${num(quantile(variant.samples, 0.75), 0)}`,
          num(median(variant.wall), 1),
          variant === ours ? times(ratio) : '',
          variant === ours ? `${times(quantile(perRound, 0.25))}-${times(quantile(perRound, 0.75))}` : '',
          variant === ours ? times(median(variant.wall) / median(bare.wall)) : '',
        ]);
      }
      if (reading !== undefined) {
        rows.push([
          `${call}: ${reading.name}`,
          num(median(reading.samples), 1),
          `${num(quantile(reading.samples, 0.25), 0)}-${num(quantile(reading.samples, 0.75), 0)}`,
          num(median(reading.wall), 1),
          '',
          '',
          '',
        ]);
        notes.push(
          `${call}: beside a static handler that reads the body too, the mock takes ${times(median(ours.samples) / median(reading.samples))}; ` +
            `reading the body costs MSW ${num(median(reading.samples) - median(bare.samples), 0)} us of the ${num(median(ours.samples) - median(bare.samples), 0)} us gap (no target: the target is against the handler that reads nothing).`,
        );
      }
      targets.push(
        target(`${call}: mock within ${TARGET_RATIO}x of a static handler`, ratio, '<=', TARGET_RATIO, { show: times }),
      );
    }
    // Create by the size of the account, each beside the static handler of the same rounds.
    const staticCreateVariant = variants.find(
      (variant) => variant.call === 'create' && variant.name === 'static MSW handler',
    );
    const sizedVariants = variants.filter((variant) => variant.sized !== undefined);
    for (const variant of sizedVariants) {
      const perRound = variant.samples.map((sample, index) => sample / staticCreateVariant.samples[index]);
      rows.push([
        `create: ${variant.name}`,
        num(median(variant.samples), 1),
        `${num(quantile(variant.samples, 0.25), 0)}-${num(quantile(variant.samples, 0.75), 0)}`,
        num(median(variant.wall), 1),
        times(median(variant.samples) / median(staticCreateVariant.samples)),
        `${times(quantile(perRound, 0.25))}-${times(quantile(perRound, 0.75))}`,
        times(median(variant.wall) / median(staticCreateVariant.wall)),
      ]);
    }
    const [smallVariant, largeVariant] = sizedVariants;
    const largeSize = await large.size();
    const growth = median(largeVariant.samples) / median(smallVariant.samples);
    notes.push(
      `create by account size: ${num(median(smallVariant.samples), 1)} us at ${num(SMALL_ACCOUNT)}-${num(SMALL_ACCOUNT + CALLS)} receipts, ` +
        `${num(median(largeVariant.samples), 1)} us at ${num(LARGE_ACCOUNT)}-${num(largeSize)} receipts (${times(growth)}): ` +
        'a ratio well above 1x means work in proportion to the account on the write path.',
    );
    targets.push(
      target(
        `create in an account of ${num(LARGE_ACCOUNT)}: within ${TARGET_RATIO}x of a static handler`,
        median(largeVariant.samples) / median(staticCreateVariant.samples),
        '<=',
        TARGET_RATIO,
        { show: times },
      ),
    );
    printTable(
      [
        'variant',
        'CPU us per call',
        'rounds p25-p75',
        'wall us per call',
        'mock / static',
        'round ratios p25-p75',
        'wall ratio',
      ],
      rows,
    );
    printNote(
      `list: GET /receipts, a page of ${PAGE} receipts (${num(listAnswer.body.length)} bytes); create: POST /receipts, 201 (${num(createAnswer.body.length)} bytes). The account grows by one receipt per create call.`,
    );
    printNote(
      "both variants include MSW's own interception and the SDK; the static handler does not read the request body.",
    );
    printNote(
      'the ratio is of the medians; "round ratios" are the two variants\' ratio within each round, whose spread shows the noise.',
    );
    for (const note of notes) printNote(note);
    printTargets(targets);
    return { failures: [] };
  } finally {
    server.close();
  }
}

/**
 * An account of its own holding `size` receipts, with an SDK client for it; `refill()` empties it
 * (`POST /_sandbox/reset`) and seeds it again, and `size()` says how many it holds now.
 */
async function sizedAccount(mock, LogbookClient, size) {
  const { token } = mock.createAccount();
  const logbook = new LogbookClient({ baseUrl: BASE_URL, token, rateLimit: false, maxRetries: 0 });
  const origin = new URL(BASE_URL).origin;
  const seed = async () => {
    for (let n = 1; n <= size; n += 1) await logbook.receipts.create(numberedReceiptBody(n));
  };
  await seed();
  return {
    logbook,
    async refill() {
      const reset = await fetch(`${origin}/_sandbox/reset`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      if (reset.status !== 204) throw new Error(`POST /_sandbox/reset answered ${reset.status}`);
      await seed();
    },
    size: async () => (await logbook.receipts.list({ per_page: 1 })).meta.total,
  };
}

/** msw's ESM entries, from the msw that @fflkit/msw itself imports, by its exports map. */
async function loadMsw() {
  const manifestPath = createRequire(MSW_PACKAGE_DIR).resolve('msw/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const entry = (subpath) => pathToFileURL(join(dirname(manifestPath), manifest.exports[subpath].import.default)).href;
  const [{ http, HttpResponse }, { setupServer }] = await Promise.all([import(entry('.')), import(entry('./node'))]);
  return { http, HttpResponse, setupServer };
}

/** A response's status, headers and body text, to answer again as they were. */
async function recordAnswer(pending) {
  const response = await pending;
  const body = await response.text();
  return { body, init: { status: response.status, headers: Object.fromEntries(response.headers) } };
}

/** Microseconds of CPU time and of wall time per call, over CALLS sequential calls. */
async function timeCalls(call) {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < CALLS; index += 1) await call();
  const wall = ((performance.now() - started) * 1000) / CALLS;
  const { user, system } = process.cpuUsage(cpuBefore);
  return { cpu: (user + system) / CALLS, wall };
}

function median(values) {
  return quantile(values, 0.5);
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}
