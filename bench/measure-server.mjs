// Measures one server under load: starts it, warms it up, runs the load, reads its peak memory
// and stops it. A server that fails is reported in its row instead of ending the benchmark.
import { loadProblems, runLoad } from './load.mjs';
import { progress } from './report.mjs';

/**
 * Resolves with a row `{ name, result, peakRss, facts, failure, skipped }`.
 * - `start()` resolves with `{ server, facts, ... }` (see spawn-server.mjs; `facts` is copied
 *   to the row as it is), or with `{ skipped }` to leave the row out with that reason.
 * - `load(started)` gives the options of {@link runLoad} (url, method, headers, body or
 *   makeBody) for the started server.
 * - `connections`, `seconds`, `warmUpSeconds` and `timeoutSeconds` shape the load.
 */
export async function measureServer({ name, start, load, connections, seconds, warmUpSeconds = 1, timeoutSeconds }) {
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
    row.result = await runLoad({ ...options, seconds });
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
