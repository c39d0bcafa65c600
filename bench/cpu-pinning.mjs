// Keeps the load generator (autocannon, in this process) and the server under load on CPUs of
// their own while a load runs. On a machine of two or four cores, the two otherwise share cores
// at the scheduler's whim: a round where they meet on one core costs the server more CPU per
// answer (its cache and the switches between them) than a round where they do not, and that
// spread, between rounds of one server, was wider than the gaps the reads targets judge.
// Linux only, with util-linux's `taskset`; elsewhere, or with a single CPU, nothing is pinned.
import { execFileSync } from 'node:child_process';

/**
 * Runs `load()` with this process on the first CPU it may use and every thread of each process
 * in `pids` on the others, then gives this process its CPUs back. Resolves with
 * `{ result, pinned }`: `pinned` says whether the split could be made (when it could not,
 * the load ran as the scheduler placed it).
 */
export async function pinnedApart(pids, load) {
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
