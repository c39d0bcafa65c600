// Console: the gzip size of everything the sandbox serves for its console (the page and its
// hashed assets, as built into packages/sandbox/dist/console/), and how soon the bound book
// page is usable in headless Chromium: from opening the console's link to the first page of
// receipts on screen, for an account of 100,000 receipts and for one of 50 (the book served a
// page at a time, the two should be alike). The export of the whole 100k book as CSV, one
// control call, is timed beside it.
// Targets (shared/DESIGN.md): the console under 60 kB (60,000 bytes) gzip; the bound book of a
// 100k-receipt account usable at once: its first page within 1.5x of a 50-receipt account's.
import { numberedReceiptBody } from '@fflkit/test-fixtures';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { request, requestJson } from './http-request.mjs';
import { num, printHeading, printNote, printTable, printTargets, progress, ratio, target } from './report.mjs';
import { authorization, createAccount, sandboxBuilt } from './sandbox-server.mjs';
import { describeSeeding, startSeededSandbox } from './seeded-sandbox.mjs';

export const description =
  'console gzip size; bound book page usable (link to first page) at 100k vs 50 receipts, in Chromium';

const SANDBOX_DIR = fileURLToPath(new URL('../packages/sandbox/', import.meta.url));
const CONSOLE_DIR = join(SANDBOX_DIR, 'dist/console');
const LIMIT_BYTES = 60_000;
const RECEIPTS = 100_000;
const SMALL = 50;
const RUNS = 9;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function run({ scratchDir, reseed }) {
  printHeading(
    'Console',
    `Size: every file of packages/sandbox/dist/console/, gzip level 9. Page: headless Chromium (${CHROMIUM}), a new tab per run opening the console's link (/#token=...) to the first page of the bound book (its rows and summary on screen); median of ${RUNS} runs after one warm-up, the accounts taking turns.`,
  );
  const failures = [];
  const size = consoleSize();
  if (size === undefined) {
    printNote('packages/sandbox/dist/console is missing: run `pnpm --filter @fflkit/sandbox build` first.');
    printTargets([
      target(`gzip size < ${num(LIMIT_BYTES)} bytes`, NaN, '<', LIMIT_BYTES, { unmeasured: 'console not built' }),
    ]);
    return { failures: ['console: the console is not built'] };
  }
  printTable(
    ['file', 'bytes', 'gzip bytes'],
    [
      ...size.files.map((file) => [file.name, num(file.bytes), num(file.gzip)]),
      ['the whole console', num(size.bytes), num(size.gzip)],
    ],
  );

  const timings = await measurePages({ scratchDir, reseed }).catch((error) => {
    failures.push(`console: ${error.message}`);
    return undefined;
  });
  if (timings !== undefined) {
    printTable(
      ['bound book page', 'receipts', 'usable (median ms)', 'min ms', 'max ms', 'vs 50 receipts'],
      [
        [
          'first page, 50 a page',
          num(SMALL),
          num(timings.small.median),
          num(timings.small.min),
          num(timings.small.max),
          '1.00x',
        ],
        [
          'first page, 50 a page',
          num(RECEIPTS),
          num(timings.large.median),
          num(timings.large.min),
          num(timings.large.max),
          ratio(timings.large.median, timings.small.median),
        ],
        [
          'then to the last (2,000th) page',
          num(RECEIPTS),
          num(timings.last.median),
          num(timings.last.min),
          num(timings.last.max),
          ratio(timings.last.median, timings.small.median),
        ],
      ],
    );
    printNote(timings.seeding);
    printNote(
      `exporting the 100k book as CSV (GET /_sandbox/receipts/export, one control call): ${num(timings.exportMs)} ms for ${num(timings.exportBytes / 1024 / 1024, 1)} MiB; through the API it would take ${num(RECEIPTS / 200)} rate-limited pages of 200, over ${num(RECEIPTS / 200 / 60)} minutes.`,
    );
  }
  printTargets([
    target(`gzip size < ${num(LIMIT_BYTES)} bytes`, size.gzip, '<', LIMIT_BYTES, {
      show: (v) => `${num(v)} bytes (${num((100 * v) / LIMIT_BYTES, 1)} % of the limit)`,
    }),
    target(
      'bound book of 100k receipts usable within 1.5x of 50 receipts',
      timings === undefined ? NaN : timings.large.median / timings.small.median,
      '<=',
      1.5,
      {
        show: (v) => `${v.toFixed(2)}x (${num(timings.large.median)} ms vs ${num(timings.small.median)} ms)`,
        unmeasured: failures[0] ?? 'not measured',
      },
    ),
  ]);
  return { failures };
}

function consoleSize() {
  if (!existsSync(join(CONSOLE_DIR, 'index.html'))) return undefined;
  const names = ['index.html', ...readdirSync(join(CONSOLE_DIR, 'assets')).map((name) => `assets/${name}`)];
  const files = names.map((name) => {
    const bytes = readFileSync(join(CONSOLE_DIR, name));
    return { name, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  return {
    files,
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    gzip: files.reduce((sum, file) => sum + file.gzip, 0),
  };
}

async function measurePages({ scratchDir, reseed }) {
  if (!sandboxBuilt()) throw new Error('the sandbox is not built');
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  // playwright-core is a devDependency of the sandbox, whose console tests drive Chromium with it.
  const { chromium } = createRequire(SANDBOX_DIR)('playwright-core');
  const started = await startSeededSandbox({ count: RECEIPTS, scratchDir, reseed, maxSeedSeconds: 120 });
  if (!started.server) throw new Error(`seeding too slow: ${started.seeding.done} of ${RECEIPTS} receipts`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const small = await createAccount(started.origin);
    progress(`making an account of ${SMALL} receipts`);
    for (let n = 1; n <= SMALL; n += 1) {
      await requestJson(
        `${started.api}/receipts`,
        { method: 'POST', headers: authorization(small), body: numberedReceiptBody(n) },
        201,
      );
    }
    const open = (token, hash) => timeToFirstPage(browser, `${started.origin}/#token=${token}`, hash);
    progress(`opening the bound book ${RUNS + 1} times for each account`);
    const [smallRuns, largeRuns, lastRuns] = await interleaved([
      () => open(small, undefined),
      () => open(started.token, undefined),
      () => open(started.token, `#/book?page=${RECEIPTS / 50}&per_page=50`),
    ]);
    const result = {
      small: smallRuns,
      large: largeRuns,
      last: lastRuns,
      seeding: describeSeeding(started.seeding, RECEIPTS),
    };
    progress('exporting the 100k book as CSV');
    const exportStarted = performance.now();
    const exported = await request(`${started.origin}/_sandbox/receipts/export`, {
      headers: authorization(started.token),
      timeoutMs: 120_000,
    });
    if (exported.status !== 200) throw new Error(`the export answered ${exported.status}`);
    return { ...result, exportMs: performance.now() - exportStarted, exportBytes: exported.body.length };
  } finally {
    await browser.close();
    await started.server.stop();
  }
}

/**
 * Milliseconds from opening the console's link in a new tab to the bound book's rows and summary
 * on screen; with `hash`, from then moving to that page of the book to that page on screen.
 */
async function timeToFirstPage(browser, link, hash) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    let startedAt = performance.now();
    await page.goto(link);
    await page.locator('table.book tbody tr').first().waitFor({ timeout: 30_000 });
    await page.locator('.summary').waitFor({ timeout: 30_000 });
    if (hash === undefined) return performance.now() - startedAt;
    // Moving to another page of the book: from the address changing to that page on screen.
    startedAt = performance.now();
    await page.evaluate((target) => (location.hash = target), hash);
    await page.getByText(/^Receipts 99,951 to 100,000 of 100,000/).waitFor({ timeout: 30_000 });
    return performance.now() - startedAt;
  } finally {
    await context.close();
  }
}

/**
 * Runs each measurement once to warm up, then `RUNS` times, taking turns, so that other work on
 * the machine weighs on each alike; resolves with each one's median, minimum and maximum.
 */
async function interleaved(measures) {
  for (const measure of measures) await measure();
  const times = measures.map(() => []);
  for (let i = 0; i < RUNS; i += 1) {
    for (const [index, measure] of measures.entries()) times[index].push(await measure());
  }
  return times.map((list) => {
    list.sort((a, b) => a - b);
    return { median: list[Math.floor(list.length / 2)], min: list[0], max: list.at(-1) };
  });
}
