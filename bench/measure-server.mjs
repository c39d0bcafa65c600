// Measures one server under load: starts it, warms it up, runs the load, reads its peak memory
// and stops it; or several side by side, in interleaved rounds, optionally on CPUs apart from the
// load generator's. A server that fails is reported in its row instead of ending the benchmark.
import { execFileSync } from 'node:child_process';
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
 *   (see pinnedApart); the row's `pinned` says whether they could be.
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
 * with the server and the load generator on CPUs of their own (see pinnedApart); a row's
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

// Pinning: the load generator (autocannon, in this process) and the server under load on CPUs of
// their own while a load runs. On a machine of two or four cores, the two otherwise share cores
// at the scheduler's whim: a round where they meet on one core costs the server more CPU per
// answer (its cache and the switches between them) than a round where they do not, and that
// spread, between rounds of one server, was wider than the gaps the reads targets judge.
// Linux only, with util-linux's `taskset`; elsewhere, or with a single CPU, nothing is pinned.

/**
 * Runs `load()` with this process on the first CPU it may use and every thread of each process
 * in `pids` on the others, then gives this process its CPUs back. Resolves with
 * `{ result, pinned }`: `pinned` says whether the split could be made (when it could not,
 * the load ran as the scheduler placed it).
 */
async function pinnedApart(pids, load) {
  const cpus = allowedCpus(process.pid);
  if (cpus === undefined || cpus.length < 2) return { result: await load(), pinned: false };
  const [generator, ...servers] = cpus;
  const pinned = pids.every((pid) => pin(pid, servers.join(','))) && pin(process.pid, String(generator));
  try {
    return { result: await load(), pinned };
  } finally {
    pin(process.pid, cpus.join(','));
  }
}

/** The CPUs a process may run on, as `taskset` lists them; `undefined` without `taskset`. */
function allowedCpus(pid) {
  if (process.platform !== 'linux') return undefined;
  try {
    // "pid 42's current affinity list: 0,2-3"
    const list = execFileSync('taskset', ['-c', '-p', String(pid)], { encoding: 'utf8' })
      .split(':')
      .pop()
      .trim();
    return list.split(',').flatMap((part) => {
      const [first, last = first] = part.split('-').map(Number);
      return Array.from({ length: last - first + 1 }, (_, index) => first + index);
    });
  } catch {
    return undefined;
  }
}

/** Pins every thread of `pid` to `cpus` (`"1,2"`); false when `taskset` refused. */
function pin(pid, cpus) {
  try {
    execFileSync('taskset', ['-a', '-c', '-p', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
