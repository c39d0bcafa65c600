// A sandbox whose account holds a given number of receipts. The sandbox makes the first receipt
// through its API; the data file is then grown by copying it (extend-data-file.mjs), or, when
// the file's layout is not the one expected, every receipt is posted through the API. The
// seeded file is kept in bench/.cache/ with its token, keyed by the sandbox's build, so a later
// run starts from a copy (`--reseed` seeds again).
import { numberedReceiptBody } from '@fflkit/test-fixtures';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extendDataFile } from './extend-data-file.mjs';
import { requestJson } from './http-request.mjs';
import { progress } from './report.mjs';
import { SANDBOX_CLI, authorization, receiptCount, seedReceipts, startSandbox } from './sandbox-server.mjs';

export const CACHE_DIR = fileURLToPath(new URL('.cache/', import.meta.url));
const BUILDS = [dirname(SANDBOX_CLI), fileURLToPath(new URL('../packages/sandbox-core/dist', import.meta.url))];
/** Bumped when the seeded receipts or the way of seeding change. */
const SEED_VERSION = 3;

/**
 * Starts a sandbox (`--rate-limit 0 --quiet`) on a scratch copy of a data file whose account
 * holds `count` receipts. Resolves with `{ server, api, token, seeding }`, `seeding` being
 * `{ how: 'cache' | 'file' | 'api', seconds, done, complete }`. When seeding through the API
 * does not finish within `maxSeedSeconds`, `complete` is false and `server` is null. `env` adds
 * to the environment of the sandbox measured (not of the one that seeds).
 */
export async function startSeededSandbox({ count, scratchDir, reseed = false, maxSeedSeconds, env }) {
  const key = await buildKey(count);
  const cacheData = join(CACHE_DIR, `sandbox-${count}.json`);
  const cacheMeta = join(CACHE_DIR, `sandbox-${count}.meta.json`);
  const dataFile = join(scratchDir, `sandbox-${count}.json`);

  const meta = reseed ? null : await readFile(cacheMeta, 'utf8').then(JSON.parse, () => null);
  if (meta?.key === key) {
    await copyFile(cacheData, dataFile);
    const started = await startVerified({ dataFile, token: meta.token, count, env });
    if (started) return { ...started, seeding: { ...meta.seeding, how: 'cache' } };
    progress(`the cached data file of ${count} receipts did not load as expected; seeding again`);
  }

  await rm(dataFile, { force: true });
  const { token, seeding } = await seed({ dataFile, count, maxSeedSeconds });
  if (!seeding.complete) return { server: null, seeding };

  await mkdir(CACHE_DIR, { recursive: true });
  await copyFile(dataFile, cacheData);
  await writeFile(cacheMeta, JSON.stringify({ key, token, seeding }));

  const started = await startVerified({ dataFile, token, count, env });
  if (!started) throw new Error(`the sandbox restarted on its seeded data file does not hold the ${count} receipts`);
  return { ...started, seeding };
}

/** Seeds a fresh data file; resolves with the account's token and how the seeding went. */
async function seed({ dataFile, count, maxSeedSeconds }) {
  const startedAt = performance.now();
  const seconds = () => (performance.now() - startedAt) / 1000;
  const sandbox = await startSandbox({ dataFile, quiet: true, rateLimit: 0 });
  let templateId;
  try {
    const { data } = await requestJson(
      `${sandbox.api}/receipts`,
      { method: 'POST', headers: authorization(sandbox.token), body: numberedReceiptBody(1) },
      201,
    );
    templateId = data.id;
  } finally {
    await sandbox.server.stop(30_000);
  }

  try {
    await extendDataFile(dataFile, { templateId, count });
    progress(`seeded ${count.toLocaleString('en-US')} receipts by copying one made through the API in the data file`);
    return { token: sandbox.token, seeding: { how: 'file', seconds: seconds(), done: count, complete: true } };
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    progress(`cannot grow the data file (${error.message}); seeding through POST /rest/v1/receipts`);
  }

  const again = await startSandbox({ dataFile, token: sandbox.token, quiet: true, rateLimit: 0 });
  try {
    progress(`seeding ${(count - 1).toLocaleString('en-US')} more receipts through POST /rest/v1/receipts`);
    const posted = await seedReceipts(again.api, again.token, {
      count: count - 1,
      from: 1,
      maxSeconds: maxSeedSeconds,
    });
    const done = posted.done + 1;
    progress(`seeded ${done.toLocaleString('en-US')} receipts in ${seconds().toFixed(1)} s`);
    return { token: sandbox.token, seeding: { how: 'api', seconds: seconds(), done, complete: posted.complete } };
  } finally {
    await again.server.stop(30_000);
  }
}

/** Starts the sandbox on `dataFile`; resolves with it when the account holds `count` receipts, else null. */
async function startVerified({ dataFile, token, count, env }) {
  let sandbox;
  try {
    sandbox = await startSandbox({ dataFile, token, quiet: true, rateLimit: 0, timeoutMs: 120_000, env });
    const total = await receiptCount(sandbox.api, token);
    if (total === count) return sandbox;
    progress(`expected ${count} receipts, the sandbox holds ${total}`);
  } catch (error) {
    progress(`starting the sandbox on ${dataFile} failed: ${error.message.split('\n')[0]}`);
  }
  await sandbox?.server.stop();
  return null;
}

/** Identifies the sandbox build by the names, sizes and times of its dist files, and what is seeded. */
export async function buildKey(count) {
  const hash = createHash('sha256').update(`${SEED_VERSION}:${count}`);
  for (const dir of BUILDS) {
    const files = await readdir(dir, { recursive: true }).catch(() => []);
    for (const file of files.sort()) {
      const info = await stat(join(dir, file)).catch(() => null);
      if (info?.isFile()) hash.update(`${join(dir, file)}:${info.size}:${info.mtimeMs}`);
    }
  }
  return hash.digest('hex');
}

/** One sentence on how the sandbox's receipts were seeded, for the report. */
export function describeSeeding({ how, seconds }, count) {
  const amount = `${count.toLocaleString('en-US')} receipts`;
  const took = `${seconds.toFixed(1)} s`;
  if (how === 'cache')
    return `the sandbox started from a cached copy of its seeded data file (bench/.cache/, ${amount}; --reseed seeds again).`;
  if (how === 'file')
    return `the sandbox's data file was seeded with ${amount} in ${took}: one receipt made through the API, copied in the file.`;
  return `the sandbox was seeded with ${amount} through POST /rest/v1/receipts in ${took} (${Math.round(count / seconds)}/s).`;
}
