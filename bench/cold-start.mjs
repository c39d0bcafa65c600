// Cold start: time from spawn to the first authenticated 200, median of several runs per server,
// the servers taking turns so that drift in the machine's load hits them alike. The sandbox
// starts twice per round: with V8's compile cache that an earlier start left (every start but
// the first), and with none (a new cache folder each time, as at the first start after an
// install, which every newcomer meets).
// The single executable (`pnpm build:binary`) starts beside them, with its startup snapshot and
// without (`node packages/sandbox/binary/build.mjs --no-snapshot`), and its size is reported.
// Targets: the sandbox with its cache at most 0.9x json-server's time, without it no slower
// than json-server, and at most a third of Prism's time; the single executable at most 0.6x
// json-server's.
// Two floors start beside them, for what no server on Node can go below on this machine: the
// smallest Node server (floor-server.cjs) on the Node that runs the CLI, and the same server from
// a startup snapshot on the Node inside the single executable (when it is built).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFloorSnapshot, startJsonServer, startNodeFloor, startPrism } from './peer-servers.mjs';
import { writeJsonServerDb } from './receipt-fixtures.mjs';
import { num, printHeading, printNote, printTable, printTargets, progress, ratio, target, times } from './report.mjs';
import { SANDBOX_BINARIES, sandboxBuilt, startSandbox } from './sandbox-server.mjs';

export const description =
  'spawn to first authenticated 200 (sandbox with and without its compile cache, the single executable with and without its snapshot, json-server, Prism)';

const RUNS = 5;
/** Where the single executable's build keeps the Node it builds into it (binary/build.mjs). */
const BINARY_OUT = fileURLToPath(new URL('../packages/sandbox/binary/out/', import.meta.url));

export async function run({ scratchDir }) {
  const dbFile = join(scratchDir, 'cold-start-db.json');
  await writeJsonServerDb(dbFile, 25);

  const snapshotNode = binaryNode();
  const floorBlob = join(scratchDir, 'floor.blob');
  let floorFailure;
  if (snapshotNode !== undefined) {
    try {
      buildFloorSnapshot(snapshotNode, floorBlob);
    } catch (error) {
      floorFailure = `could not build its snapshot: ${String(error.stderr ?? error.message).split('\n')[0]}`;
    }
  }

  // Node 22 and later would also keep a compile cache of their own when told to: never here.
  const cacheEnv = (dir) => ({ FFLKIT_SANDBOX_COMPILE_CACHE: dir, NODE_COMPILE_CACHE: '' });
  const servers = [
    {
      name: 'sandbox',
      how: 'CLI on a fresh data file, with the compile cache of earlier starts; GET /rest/v1/books',
      built: sandboxBuilt(),
      start: (round) =>
        startSandbox({
          dataFile: join(scratchDir, `cold-start-sandbox-${round}.json`),
          env: cacheEnv(join(scratchDir, 'compile-cache')),
        }),
    },
    {
      name: 'sandbox, no cache',
      how: 'the same, with a new compile cache folder: the first start after an install',
      built: sandboxBuilt(),
      start: (round) =>
        startSandbox({
          dataFile: join(scratchDir, `cold-start-sandbox-first-${round}.json`),
          env: cacheEnv(join(scratchDir, `compile-cache-first-${round}`)),
        }),
    },
    {
      name: 'single executable',
      how: 'pnpm build:binary: Node 24 with the startup snapshot, on a fresh data file; GET /rest/v1/books',
      built: existsSync(SANDBOX_BINARIES.snapshot),
      start: (round) =>
        startSandbox({
          dataFile: join(scratchDir, `cold-start-binary-${round}.json`),
          executable: SANDBOX_BINARIES.snapshot,
        }),
    },
    {
      name: 'single executable, no snapshot',
      how: 'the same, built with --no-snapshot (V8 code cache of the program instead)',
      built: existsSync(SANDBOX_BINARIES.noSnapshot),
      start: (round) =>
        startSandbox({
          dataFile: join(scratchDir, `cold-start-binary-plain-${round}.json`),
          executable: SANDBOX_BINARIES.noSnapshot,
        }),
    },
    {
      name: 'json-server',
      how: 'db of 25 receipts; GET /receipts?_page=1&_per_page=1',
      built: true,
      start: () => startJsonServer(dbFile),
    },
    { name: 'Prism', how: 'prism mock openapi.yaml; GET /books with a bearer', built: true, start: () => startPrism() },
    {
      name: 'Node floor',
      how: `the smallest Node server (floor-server.cjs) on Node ${process.versions.node}, which runs the CLI here`,
      built: true,
      start: () => startNodeFloor(),
    },
    {
      name: 'snapshot floor',
      how: 'the same server from a startup snapshot, on the Node that pnpm build:binary builds the single executable with',
      built: snapshotNode !== undefined,
      failure: floorFailure,
      start: () => startNodeFloor({ node: snapshotNode, snapshotBlob: floorBlob }),
    },
  ];
  for (const server of servers) server.times = [];

  // Round 0 warms the file cache and is not counted.
  for (let round = 0; round <= RUNS; round++) {
    for (const server of servers) {
      if (!server.built || server.failure) continue;
      try {
        const started = await server.start(round);
        await started.server.stop();
        if (round > 0) server.times.push(started.readyMs);
      } catch (error) {
        server.failure = error.message;
      }
    }
    progress(`cold start: round ${round} of ${RUNS} done${round === 0 ? ' (warm-up)' : ''}`);
  }

  for (const server of servers) server.median = server.failure ? NaN : median(server.times);
  const [sandbox, firstStart, binary, plainBinary, jsonServer, prism, nodeFloor, snapshotFloor] = servers;

  printHeading(
    'Cold start',
    `Spawn to first authenticated 200, median of ${RUNS} runs each (after one warm-up run), polling every 5 ms.`,
  );
  printTable(
    ['server', 'median ms', 'min ms', 'max ms', 'sandbox / server', 'note'],
    servers.map((server) => [
      server.name,
      num(server.median),
      num(server.failure ? NaN : Math.min(...server.times)),
      num(server.failure ? NaN : Math.max(...server.times)),
      server === sandbox ? '' : ratio(sandbox.median, server.median),
      !server.built
        ? server === plainBinary
          ? 'not built: node packages/sandbox/binary/build.mjs --no-snapshot'
          : server === snapshotFloor
            ? 'no Node of the single executable (pnpm build:binary fetches it)'
            : 'not built'
        : server.failure
          ? `FAILED: ${server.failure.split('\n')[0]}`
          : server.how,
    ]),
  );
  printNote('sandbox / server is a ratio of times: below 1.00x the sandbox starts faster.');
  printNote(
    `without its compile cache the sandbox takes ${ratio(firstStart.median, jsonServer.median)} of json-server's time.`,
  );
  printNote(
    `the floors take ${ratio(nodeFloor.median, jsonServer.median)} (Node) and ${ratio(snapshotFloor.median, jsonServer.median)} (from a snapshot) of json-server's time: ` +
      'a start of the CLI or of the single executable cannot take less than its floor.',
  );

  printTable(
    ['single executable', 'size MB', 'cold start / json-server'],
    [binary, plainBinary].map((server) => [
      server.name,
      server.built
        ? num(statSync(server === binary ? SANDBOX_BINARIES.snapshot : SANDBOX_BINARIES.noSnapshot).size / 1e6, 1)
        : 'not built',
      ratio(server.median, jsonServer.median),
    ]),
  );

  const unmeasured = sandbox.built ? 'sandbox failed' : 'sandbox not built';
  printTargets([
    target('sandbox with its cache at most 0.9x json-server', sandbox.median / jsonServer.median, '<=', 0.9, {
      unmeasured,
      show: times,
    }),
    target(
      'sandbox without a cache no slower than json-server (<= 1.00x)',
      firstStart.median / jsonServer.median,
      '<=',
      1,
      {
        unmeasured: firstStart.built ? 'sandbox failed' : 'sandbox not built',
        show: times,
      },
    ),
    target('sandbox at most a third of Prism (<= 0.33x)', sandbox.median / prism.median, '<=', 1 / 3, {
      unmeasured,
      show: times,
    }),
    target('single executable at most 0.6x json-server', binary.median / jsonServer.median, '<=', 0.6, {
      unmeasured: binary.built ? 'single executable failed' : 'single executable not built (pnpm build:binary)',
      show: times,
    }),
  ]);

  return {
    failures: servers
      .filter((server) => server.failure)
      .map((server) => `cold start, ${server.name}: ${server.failure}`),
  };
}

/** The Node that binary/build.mjs fetched into binary/out/node-v*, if any. */
function binaryNode() {
  if (!existsSync(BINARY_OUT)) return undefined;
  const dir = readdirSync(BINARY_OUT).find((name) => /^node-v\d/.test(name));
  const node = dir === undefined ? undefined : join(BINARY_OUT, dir, 'bin', 'node');
  return node !== undefined && existsSync(node) ? node : undefined;
}

function median(values) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
