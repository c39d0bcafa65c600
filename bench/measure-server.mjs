// Measures one server under load: starts it, warms it up, runs the load, reads its peak memory
// and stops it; or several side by side, in interleaved rounds. A server that fails is reported
// in its row instead of ending the benchmark.
import { pinnedApart } from './cpu-pinning.mjs';
import { loadProblems, runLoad } from './load.mjs';
import { progress } from './report.mjs';

/**
 * Resolves with a row `{ name, result, peakRss, facts, failure, skipped }`.
 * - `start()` resolves with `{ server, facts, ... }` (see spawn-server.mjs; `facts` is copied
 *   to the row as it is), or with `{ skipped }` to leave the row out with that reason.
 * - `load(started)` gives the options of {@link runLoad} (url, method, headers, body or
 *   makeBody) for the started server.
 * - `connections`, `seconds`, `warmUpSeconds` and `timeoutSeconds` shape the load.
 * - `apart`: the measured load runs with the server and the load generator on CPUs of their own
 *   (see cpu-pinning.mjs); the row's `pinned` says whether they could be.
 */
export async function measureServer({
  name,
  start,
  load,
  connections,
  seconds,
  warmUpSeconds = 1,
  timeoutSeconds,
  apart = false,
}) {
  const row = { name, facts: {} };
  let started;
  try {
    progress(`${name}: starting`);
    started = await start();
    if (started.skipped) return { ...row, skipped: started.skipped };
    row.facts = started.facts ?? {};
    const options = { ...load(started), connections, timeoutSeconds };
    if (warmUpSeconds) {
      const warmUp = await runLoad({ ...options, seconds: warmUpSeconds });
      const problems = loadProblems(warmUp);
      if (problems) throw new Error(`warm-up: ${problems}`);
    }
    progress(`${name}: measuring for ${seconds} s with ${connections} connections`);
    const measured = () => runLoad({ ...options, seconds });
    if (apart) ({ result: row.result, pinned: row.pinned } = await pinnedApart([started.server.pid], measured));
    else row.result = await measured();
    row.peakRss = started.server.peakRssBytes();
    const problems = loadProblems(row.result);
    if (problems) row.failure = problems;
  } catch (error) {
    row.failure = error.message;
  } finally {
    await started?.server?.stop();
  }
  return row;
}

/** The text of a row's note column: its failure, its skip reason, or `fallback`. */
export function rowNote(row, fallback = '') {
  if (row.skipped) return row.skipped;
  if (row.failure) return `FAILED: ${row.failure.split('\n')[0]}`;
  return fallback;
}

/**
 * Measures servers side by side: starts each (as {@link measureServer} does), warms each up,
 * then runs `rounds` rounds of `seconds` of load on each in turn, each round beginning with
 * another server, so that drift in the machine's load hits them alike. Resolves with a row per
 * server, as {@link measureServer} gives, its `result` holding the medians of the rounds
 * (`rps`, `p50`, `p99`) and `cpuPerRequestUs`, the server process's CPU time per answered
 * request (every thread's): what a shared machine inflates least. With `apart`, each round runs
 * with the server and the load generator on CPUs of their own (see cpu-pinning.mjs); a row's
 * `pinned` says whether every one of its rounds was.
 */
export async function measureInterleaved({ servers, rounds, seconds, connections, timeoutSeconds, apart = false }) {
  const rows = servers.map(({ name }) => ({ name, facts: {}, rounds: [] }));
  const started = [];
  try {
    for (const [at, server] of servers.entries()) {
      const row = rows[at];
      try {
        progress(`${server.name}: starting`);
        const handle = await server.start();
        if (handle.skipped) {
          row.skipped = handle.skipped;
          continue;
        }
        started[at] = handle;
        row.facts = handle.facts ?? {};
        row.options = { ...server.load(handle), connections, timeoutSeconds };
        const warmUp = await runLoad({ ...row.options, seconds: 1 });
        const problems = loadProblems(warmUp);
        if (problems) throw new Error(`warm-up: ${problems}`);
      } catch (error) {
        row.failure = error.message;
      }
    }
    for (let round = 0; round < rounds; round++) {
      progress(`side by side: round ${round + 1} of ${rounds}, ${seconds} s per server`);
      for (let turn = 0; turn < servers.length; turn++) {
        const at = (round + turn) % servers.length;
        const row = rows[at];
        if (row.skipped || row.failure) continue;
        try {
          const { server } = started[at];
          const measured = async () => {
            const cpuBefore = server.cpuMs();
            const result = await runLoad({ ...row.options, seconds });
            return { ...result, cpuPerRequestUs: ((server.cpuMs() - cpuBefore) * 1000) / result.ok };
          };
          const { result, pinned } = apart ? await pinnedApart([server.pid], measured) : { result: await measured() };
          const problems = loadProblems(result);
          if (problems) throw new Error(problems);
          row.pinned = (row.pinned ?? true) && pinned === true;
          row.rounds.push(result);
        } catch (error) {
          row.failure = error.message;
        }
      }
    }
    for (const [at, row] of rows.entries()) {
      if (started[at]) row.peakRss = started[at].server.peakRssBytes();
      if (row.rounds.length === 0) continue;
      row.result = Object.fromEntries(
        ['rps', 'p50', 'p99', 'cpuPerRequestUs'].map((key) => [key, median(row.rounds.map((one) => one[key]))]),
      );
    }
  } finally {
    for (const handle of started) await handle?.server?.stop();
  }
  return rows;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
