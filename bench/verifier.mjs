// Verifier: microseconds per verification of an X-SVC-Signature at 1 KB and 64 KB, for both
// builds of @fflkit/webhooks (node:crypto and Web Crypto), bare node:crypto (createHmac and
// timingSafeEqual, called synchronously: the floor) and @octokit/webhooks-methods (the same
// `sha256=` scheme, GitHub's). Everything runs in this process, rounds interleaved so that drift
// hits every row alike and no row always runs first; each figure is the median of the rounds.
// Target: the build Node loads (the node build) within 1.5x of bare node:crypto at both sizes.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { num, printHeading, printNote, printTable, printTargets, progress, target, times } from './report.mjs';

export const description =
  'us per X-SVC-Signature verification at 1 KB and 64 KB: both webhooks builds, bare node:crypto, @octokit/webhooks-methods';

const WEBHOOKS_DIR = fileURLToPath(new URL('../packages/webhooks/', import.meta.url));
const SECRET = 'whsec_5f0c2a9e7b3d41c8a6e2f9d07b4c1a3e';
const ROUNDS = 9;
const SIZES = [
  { label: '1 KB', bytes: 1024, iterations: 20_000 },
  { label: '64 KB', bytes: 64 * 1024, iterations: 1_000 },
];
const TARGET_RATIO = 1.5;

export async function run() {
  const failures = [];
  const rows = [
    { name: 'bare node:crypto', how: 'createHmac + timingSafeEqual, synchronous', load: async () => bareVerify },
    { name: 'webhooks, node build', how: 'dist/index.js: verifySignature', load: () => loadBuild('index.js') },
    {
      name: 'webhooks, web build',
      how: 'dist/web.js: verifySignature (Web Crypto on Node)',
      load: () => loadBuild('web.js'),
    },
    { name: '@octokit/webhooks-methods', how: 'verify, node build', load: loadOctokit },
  ];
  for (const row of rows) {
    try {
      row.verify = await row.load();
    } catch (error) {
      row.skipped = error.message;
      progress(`${row.name}: ${error.message}`);
    }
  }
  const measured = rows.filter((row) => row.verify);

  for (const size of SIZES) {
    const body = jsonBody(size.bytes);
    const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
    progress(`${size.label}: ${ROUNDS} rounds of ${num(size.iterations)} verifications per row`);
    const samples = new Map(measured.map((row) => [row, []]));
    for (let round = 0; round <= ROUNDS; round += 1) {
      // Each round starts with another row, so that no row always runs first (or last).
      const order = measured.map((_, index) => measured[(index + round) % measured.length]);
      for (const row of order) {
        try {
          const microseconds = await timeVerifications(row.verify, body, signature, size.iterations);
          // Round 0 warms the JIT and the key cache up; it is not counted.
          if (round > 0) samples.get(row).push(microseconds);
        } catch (error) {
          row.failure = `${size.label}: ${error.message}`;
        }
      }
    }
    for (const row of measured) row[size.label] = row.failure ? NaN : median(samples.get(row));
  }

  const bare = rows[0];
  const ratio = (row, label) => row[label] / bare[label];
  printHeading(
    'Verifier',
    `Microseconds per verification of a valid signature (median of ${ROUNDS} rounds after a warm-up round; ` +
      `${SIZES.map((size) => `${num(size.iterations)} verifications per round at ${size.label}`).join(', ')}). ` +
      'The body is a JSON string; every verification must answer true.',
  );
  printTable(
    ['verifier', ...SIZES.flatMap((size) => [`${size.label} us`, `${size.label} / bare`]), 'note'],
    rows.map((row) => [
      row.name,
      ...SIZES.flatMap((size) => [num(row[size.label], 2), row === bare ? '' : times(ratio(row, size.label))]),
      row.skipped ?? row.failure ?? row.how,
    ]),
  );
  printNote(
    "our API and octokit's are asynchronous (the same on Node and Web Crypto): each call is awaited, the bare row is not.",
  );
  printNote(
    'the web build is what Deno, Workers and browsers load; on Node it runs Web Crypto, shown for comparison only.',
  );

  const node = rows[1];
  const web = rows[2];
  const unmeasured = node.skipped ? `node build ${node.skipped}` : 'node build failed';
  printTargets([
    ...SIZES.map((size) =>
      target(
        `node build within ${TARGET_RATIO}x of bare node:crypto at ${size.label}`,
        ratio(node, size.label),
        '<=',
        TARGET_RATIO,
        { unmeasured, show: times },
      ),
    ),
  ]);
  console.log(
    `  (web build, no target: ${SIZES.map((size) => `${times(ratio(web, size.label))} at ${size.label}`).join(', ')}; octokit: ${SIZES.map((size) => `${times(ratio(rows[3], size.label))} at ${size.label}`).join(', ')})`,
  );

  for (const row of rows) if (row.failure) failures.push(`verifier, ${row.name}: ${row.failure}`);
  return { failures };
}

/** The floor: HMAC and constant-time comparison with node:crypto, no checks around them. */
function bareVerify(secret, body, signature) {
  const expected = Buffer.from(signature.slice(7), 'hex');
  const actual = createHmac('sha256', secret).update(body).digest();
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}

/** `verifySignature` of one build of @fflkit/webhooks, from its dist/. */
async function loadBuild(file) {
  const path = join(WEBHOOKS_DIR, 'dist', file);
  if (!existsSync(path)) throw new Error('not built (pnpm --filter @fflkit/webhooks build)');
  const { verifySignature } = await import(pathToFileURL(path).href);
  return verifySignature;
}

/** octokit's `verify`, resolved from the webhooks package's devDependencies by its exports map. */
async function loadOctokit() {
  const dir = join(WEBHOOKS_DIR, 'node_modules', '@octokit', 'webhooks-methods');
  if (!existsSync(dir)) throw new Error('not installed (pnpm install)');
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const { verify } = await import(pathToFileURL(join(dir, manifest.exports['.'].node.import)).href);
  return verify;
}

/** Microseconds per call over `iterations` calls, each checked to answer true. */
async function timeVerifications(verify, body, signature, iterations) {
  const started = performance.now();
  for (let index = 0; index < iterations; index += 1) {
    if ((await verify(SECRET, body, signature)) !== true) throw new Error('a valid signature was refused');
  }
  return ((performance.now() - started) * 1000) / iterations;
}

/** A delivery-like JSON body of exactly `bytes` bytes. */
function jsonBody(bytes) {
  const head = '{"event":"receipt.created","timestamp":"2025-03-14T15:04:05Z","data":{"notes":"';
  const tail = '"}}';
  return `${head}${'x'.repeat(bytes - head.length - tail.length)}${tail}`;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
