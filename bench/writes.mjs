// Writes: durable POST /receipts into an account of 100,000 receipts, for the sandbox (each
// commit flushed to the disk before its answers, the default), the sandbox with --no-flush, and
// json-server on a db file of the same size (json-server rewrites its whole file per write), and
// for the sandbox in memory (--memory), seeded through its API.
// Targets: the sandbox at least 20x json-server's throughput, p99 under 200 ms, peak RSS under
// 400 MB; in memory at least 0.8x the data file's throughput (a write costs the change alone).
// The flush's cost is reported beside: the rate with it over the rate without.
import { numberedReceiptBody } from '@fflkit/test-fixtures';
import { join } from 'node:path';
import { measureServer, rowNote } from './measure-server.mjs';
import { startJsonServer } from './peer-servers.mjs';
import { writeJsonServerDb } from './receipt-fixtures.mjs';
import { mb, num, printHeading, printNote, printTable, printTargets, ratio, target, times } from './report.mjs';
import { authorization, sandboxBuilt, seedReceipts, startSandbox } from './sandbox-server.mjs';
import { describeSeeding, startSeededSandbox } from './seeded-sandbox.mjs';

export const description = 'POST /receipts into 100k receipts: sandbox vs json-server, p50/p99, peak RSS';

const RECEIPTS = 100_000;
const CONNECTIONS = 10;
const SECONDS = 10;
/** json-server acknowledges its writes in batches seconds apart: it gets a longer window. */
const JSON_SERVER_SECONDS = 20;
/** Seeding through HTTP is expected within two minutes; past that the sandbox row is skipped. */
const MAX_SEED_SECONDS = 120;

export async function run({ scratchDir, reseed }) {
  const dbFile = join(scratchDir, 'writes-db.json');
  await writeJsonServerDb(dbFile, RECEIPTS);
  // No warm-up: writes sent in a warm-up could still be in flight when the measurement starts.
  const shape = { connections: CONNECTIONS, seconds: SECONDS, warmUpSeconds: 0, timeoutSeconds: 60 };
  const notes = [];
  const post = (url, headers = {}) => ({
    url,
    method: 'POST',
    headers,
    makeBody: (n) => numberedReceiptBody(RECEIPTS + 1 + n),
  });

  const seededSandbox = (name, env) =>
    measureServer({
      name,
      ...shape,
      start: async () => {
        if (!sandboxBuilt()) return { skipped: 'not built' };
        const started = await startSeededSandbox({
          count: RECEIPTS,
          scratchDir,
          // Seeded once: the second row starts from the same cached file.
          reseed: reseed && env === undefined,
          maxSeedSeconds: MAX_SEED_SECONDS,
          env,
        });
        const { done, seconds } = started.seeding;
        if (!started.server) {
          notes.push(
            `SEEDING TOO SLOW: POST /rest/v1/receipts seeded only ${num(done)} of ${num(RECEIPTS)} receipts in ${seconds.toFixed(0)} s ` +
              `(${num(done / seconds)}/s; ${num(RECEIPTS / MAX_SEED_SECONDS)}/s needed). The writes of the sandbox were not measured: ` +
              'the data file could not be grown directly (see the progress lines), and the API is too slow to seed it.',
          );
          return { skipped: `seeding too slow (${num(done)} in ${seconds.toFixed(0)} s)` };
        }
        if (env === undefined) notes.push(describeSeeding(started.seeding, RECEIPTS));
        return started;
      },
      load: ({ api, token }) => post(`${api}/receipts`, authorization(token)),
    });
  const sandbox = await seededSandbox('sandbox');
  // The same data file, its writes answered without waiting for the disk's flush.
  const unflushed = await seededSandbox('sandbox, --no-flush', { FFLKIT_SANDBOX_NO_FLUSH: '1' });

  const memory = await measureServer({
    name: 'sandbox, memory',
    ...shape,
    start: async () => {
      if (!sandboxBuilt()) return { skipped: 'not built' };
      const started = await startSandbox({ rateLimit: 0 });
      const seeding = await seedReceipts(started.api, started.token, { count: RECEIPTS, maxSeconds: MAX_SEED_SECONDS });
      if (!seeding.complete) {
        await started.server.stop();
        return { skipped: `seeding too slow (${num(seeding.done)} in ${seeding.seconds.toFixed(0)} s)` };
      }
      notes.push(
        `The sandbox in memory was seeded with ${num(RECEIPTS)} receipts through POST /rest/v1/receipts in ${seeding.seconds.toFixed(1)} s.`,
      );
      return started;
    },
    load: ({ api, token }) => post(`${api}/receipts`, authorization(token)),
  });

  const jsonServer = await measureServer({
    name: 'json-server',
    ...shape,
    seconds: JSON_SERVER_SECONDS,
    start: () => startJsonServer(dbFile),
    load: ({ baseUrl }) => post(`${baseUrl}/receipts`),
  });

  const rows = [sandbox, unflushed, memory, jsonServer];
  const how = {
    sandbox: `POST /rest/v1/receipts, --data file (each commit flushed), --rate-limit 0`,
    'sandbox, --no-flush': 'POST /rest/v1/receipts, --data file, --no-flush, --rate-limit 0',
    'sandbox, memory': 'POST /rest/v1/receipts, --memory, --rate-limit 0',
    'json-server': 'POST /receipts, db file, NODE_ENV=production',
  };
  const rps = (row) => row.result?.rps ?? NaN;

  printHeading(
    'Writes',
    `${CONNECTIONS} keep-alive connections into ${num(RECEIPTS)} receipts for ${SECONDS} s (json-server ${JSON_SERVER_SECONDS} s); ` +
      "writes/s is 2xx answers over the time to the last one; peak RSS is the server process's VmHWM.",
  );
  printTable(
    ['server', 'acked', 'writes/s', 'p50 ms', 'p99 ms', 'peak RSS MB', 'sandbox / server', 'note'],
    rows.map((row) => [
      row.name,
      num(row.result?.ok),
      num(rps(row), rps(row) < 100 ? 1 : 0),
      num(row.result?.p50),
      num(row.result?.p99),
      mb(row.peakRss),
      row === sandbox
        ? ''
        : row === memory
          ? `${ratio(rps(memory), rps(sandbox))} of the file's`
          : row === unflushed
            ? `flushed: ${ratio(rps(sandbox), rps(unflushed))} of this rate`
            : ratio(rps(sandbox), rps(row)),
      rowNote(row, how[row.name]),
    ]),
  );
  for (const note of notes) printNote(note);
  printNote(
    'json-server writes its file through a temporary file and a rename, coalescing concurrent writes, without fsync.',
  );
  const cost = 1 - rps(sandbox) / rps(unflushed);
  if (Number.isFinite(cost)) {
    printNote(
      `The flush (fdatasync of each group commit) costs ${num(100 * cost, 1)} % of the write rate without it${cost > 0.25 ? ': more than a quarter, so --no-flush offers it off for throwaway sandboxes, flushing staying the default' : ''}.`,
    );
  }

  const unmeasured = sandbox.skipped ? `sandbox ${sandbox.skipped}` : 'sandbox failed';
  printTargets([
    target('sandbox >= 20x json-server writes/s', rps(sandbox) / rps(jsonServer), '>=', 20, {
      unmeasured,
      show: times,
    }),
    target('sandbox p99 < 200 ms', sandbox.result?.p99 ?? NaN, '<', 200, {
      unmeasured,
      show: (value) => `${num(value)} ms`,
    }),
    target('sandbox peak RSS < 400 MB', (sandbox.peakRss ?? NaN) / 2 ** 20, '<', 400, {
      unmeasured,
      show: (value) => `${num(value)} MB`,
    }),
    target('sandbox in memory >= 0.8x the data file writes/s', rps(memory) / rps(sandbox), '>=', 0.8, {
      unmeasured: memory.skipped ? `memory ${memory.skipped}` : 'memory failed',
      show: times,
    }),
  ]);

  return { failures: rows.filter((row) => row.failure).map((row) => `writes, ${row.name}: ${row.failure}`) };
}
