// The sandbox's container image (packages/sandbox/container): its size, and its cold start from
// `podman run` to the first authenticated 200, with and without the compile cache its build
// made, taking turns with the CLI started as the cold-start benchmark starts it (with the
// compile cache of earlier starts) and json-server. The
// image is built for the run (scripts/build-image.mjs, from packages/sandbox/dist) and removed
// after; each start gets a new volume, as the CLI gets a new data file. Needs podman or docker
// (FFLKIT_CONTAINER_ENGINE chooses): without one, its rows say so.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildImage } from '../scripts/build-image.mjs';
import { containerEngine } from '../scripts/container/engine.mjs';
import { startJsonServer } from './peer-servers.mjs';
import { writeJsonServerDb } from './receipt-fixtures.mjs';
import { num, printHeading, printNote, printTable, progress, ratio } from './report.mjs';
import { authorization, sandboxBuilt, startSandbox } from './sandbox-server.mjs';
import { freePort, spawnServer } from './spawn-server.mjs';

export const description = 'the container image: its size, and podman run to first authenticated 200 beside the CLI';

const RUNS = 5;
const DIST = fileURLToPath(new URL('../packages/sandbox/dist', import.meta.url));

/** Starts the image on a new volume (named after `label`), with `options` for `run`; resolves like startSandbox(). */
async function startImage(engine, image, label, options = []) {
  const port = await freePort();
  const name = `fflkit-bench-${process.pid}-${label}`;
  engine.run(['volume', 'create', name]);
  const server = spawnServer(
    'container image',
    [
      'run',
      '--rm',
      '--name',
      name,
      '--publish',
      `127.0.0.1:${port}:4010`,
      '--volume',
      `${name}:/data`,
      ...options,
      image,
    ],
    { command: engine.name, env: engine.env },
  );
  const stop = async () => {
    await server.stop();
    engine.run(['rm', '--force', '--volumes', name], { allowFailure: true });
    engine.run(['volume', 'rm', '--force', name], { allowFailure: true });
  };
  try {
    const [token] = await server.waitForOutput(/\bsbx_[A-Za-z0-9_-]+/, 60_000);
    const readyMs = await server.pollUntil(`http://127.0.0.1:${port}/rest/v1/books`, {
      headers: authorization(token),
    });
    return { server: { stop }, readyMs };
  } catch (error) {
    await stop();
    throw error;
  }
}

export async function run({ scratchDir }) {
  printHeading(
    'Container image',
    `Its size, and its cold start: run to the first authenticated 200 (GET /rest/v1/books), median of ${RUNS} runs each after one warm-up, taking turns.`,
  );
  if (!sandboxBuilt()) {
    printNote('not measured: the sandbox is not built (pnpm build)');
    return { failures: [] };
  }
  let engine;
  try {
    engine = containerEngine();
  } catch (error) {
    printNote(`not measured: ${error.message.replace(/^engine: /, '')}`);
    return { failures: [] };
  }
  const image = `localhost/fflkit-sandbox:bench-${process.pid}`;
  const failures = [];
  try {
    progress('container image: building');
    const size = await buildImage(engine, [image]);
    const dbFile = join(scratchDir, 'image-db.json');
    await writeJsonServerDb(dbFile, 25);
    const servers = [
      {
        name: 'container image',
        how: `${engine.name} run, a new volume`,
        start: (round) => startImage(engine, image, `${round}`),
      },
      {
        name: 'image, no cache',
        how: 'the same, without the compile cache made by the build (FFLKIT_SANDBOX_COMPILE_CACHE=off)',
        start: (round) => startImage(engine, image, `${round}-off`, ['--env', 'FFLKIT_SANDBOX_COMPILE_CACHE=off']),
      },
      {
        name: 'sandbox CLI',
        how: 'node dist/cli.cjs, a new data file, with the compile cache of earlier starts',
        start: (round) =>
          startSandbox({
            dataFile: join(scratchDir, `image-cli-${round}.json`),
            env: { FFLKIT_SANDBOX_COMPILE_CACHE: join(scratchDir, 'image-compile-cache'), NODE_COMPILE_CACHE: '' },
          }),
      },
      { name: 'json-server', how: 'db of 25 receipts', start: () => startJsonServer(dbFile) },
    ];
    for (const server of servers) server.times = [];
    for (let round = 0; round <= RUNS; round++) {
      for (const server of servers) {
        if (server.failure) continue;
        try {
          const started = await server.start(round);
          await started.server.stop();
          if (round > 0) server.times.push(started.readyMs);
        } catch (error) {
          server.failure = error.message;
        }
      }
      progress(`container image: round ${round} of ${RUNS} done${round === 0 ? ' (warm-up)' : ''}`);
    }
    for (const server of servers) server.median = server.failure ? Number.NaN : median(server.times);
    const [container] = servers;
    printTable(
      ['server', 'median ms', 'min ms', 'max ms', 'image / server', 'note'],
      servers.map((server) => [
        server.name,
        num(server.median),
        num(server.failure ? Number.NaN : Math.min(...server.times)),
        num(server.failure ? Number.NaN : Math.max(...server.times)),
        server === container ? '' : ratio(container.median, server.median),
        server.failure ? `FAILED: ${server.failure.split('\n')[0]}` : server.how,
      ]),
    );
    const bundle = statSync(join(DIST, 'cli-program.cjs')).size + statSync(join(DIST, 'cli.cjs')).size;
    printTable(
      ['what', 'MB', 'note'],
      [
        [
          'container image',
          num(size / 1e6, 1),
          `${engine.name} image inspect: Node and its libraries, the bundle, the console`,
        ],
        ['  of which Node', num(statSync(process.execPath).size / 1e6, 1), process.execPath],
        [
          'sandbox CLI',
          num(bundle / 1e6, 1),
          'dist/cli.cjs and cli-program.cjs, with every dependency; Node not counted',
        ],
      ],
    );
    printNote('image / server is a ratio of times: the image adds the container runtime’s start to the CLI’s.');
    failures.push(...servers.filter((server) => server.failure).map((s) => `container image, ${s.name}: ${s.failure}`));
  } catch (error) {
    printNote(`not measured: ${error.message}`);
    failures.push(`container image: ${error.message}`);
  } finally {
    engine.run(['rmi', '--force', image], { allowFailure: true });
    engine.dispose();
  }
  return { failures };
}

function median(values) {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
