// Entry of `pnpm bench`: runs the benchmarks named on the command line (all when none is named)
// and prints their report. A missed target never fails the run; the exit code is 1 only when a
// benchmark could not measure (a server failed or the harness broke), 2 on a usage error.
//   pnpm bench -- cold-start reads writes [--reseed]
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_CLI, sandboxBuilt } from './sandbox-server.mjs';

/** Each benchmark is a module exporting `description` and `run(context)`. */
const BENCHMARKS = {
  'cold-start': () => import('./cold-start.mjs'),
  reads: () => import('./reads.mjs'),
  writes: () => import('./writes.mjs'),
  million: () => import('./million.mjs'),
  capacity: () => import('./capacity.mjs'),
  webhooks: () => import('./webhooks.mjs'),
  verifier: () => import('./verifier.mjs'),
  'sdk-size': () => import('./sdk-size.mjs'),
  'sdk-overhead': () => import('./sdk-overhead.mjs'),
  'msw-overhead': () => import('./msw-overhead.mjs'),
  'mcp-call': () => import('./mcp-call.mjs'),
  console: () => import('./console.mjs'),
  image: () => import('./image.mjs'),
  'drift-proxy': () => import('./drift-proxy.mjs'),
  soak: () => import('./soak.mjs'),
};

// An interrupted run still stops every server it started (see spawn-server.mjs).
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const flags = new Set(args.filter((arg) => arg.startsWith('--')));
const names = args.filter((arg) => !arg.startsWith('--'));
const unknown = [
  ...names.filter((name) => !(name in BENCHMARKS)),
  ...[...flags].filter((flag) => !['--reseed', '--help'].includes(flag)),
];

if (flags.has('--help') || unknown.length) {
  if (unknown.length) console.error(`Unknown: ${unknown.join(', ')}`);
  console.error(`Usage: pnpm bench -- [${Object.keys(BENCHMARKS).join('] [')}] [--reseed]\n`);
  for (const [name, load] of Object.entries(BENCHMARKS))
    console.error(`  ${name.padEnd(10)}  ${(await load()).description}`);
  console.error(`  ${'--reseed'.padEnd(10)}  seed the sandbox's receipts again instead of using bench/.cache/`);
  process.exit(unknown.length ? 2 : 0);
}

const selected = names.length ? [...new Set(names)] : Object.keys(BENCHMARKS);
const scratchDir = await mkdtemp(join(tmpdir(), 'fflkit-bench-'));
const failures = [];
const started = performance.now();

console.log('# FFLKit benchmarks');
console.log(
  `Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${new Date().toISOString()}`,
);
// Other work on the machine skews every figure; the load average tells the reader how much.
console.log(
  `Load average before the run: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(', ')} (1, 5, 15 min)`,
);
console.log(
  `Sandbox: ${sandboxBuilt() ? SANDBOX_CLI : 'not built (packages/sandbox/dist/cli.cjs missing): its rows are skipped'}`,
);

try {
  for (const name of selected) {
    process.stderr.write(`\n> ${name}\n`);
    try {
      const benchmark = await BENCHMARKS[name]();
      const result = await benchmark.run({ scratchDir, reseed: flags.has('--reseed') });
      failures.push(...(result?.failures ?? []));
    } catch (error) {
      failures.push(`${name}: harness error: ${error.stack ?? error}`);
    }
  }
} finally {
  await rm(scratchDir, { recursive: true, force: true });
}

console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
if (failures.length) {
  console.log(`\n${failures.length} measurement(s) could not be made:`);
  for (const failure of failures) console.log(`  - ${failure}`);
  process.exitCode = 1;
}
