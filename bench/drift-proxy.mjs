// Drift proxy: what `fflkit-sandbox proxy` adds to calling the service directly, in one run. The
// service is the sandbox (the built CLI, in memory, its rate limit raised so that every answer
// still carries its rate-limit headers), the proxy the built CLI's `proxy` in front of it, each
// a child process; the request is GET /rest/v1/receipts, a page of 25 receipts, which the proxy
// checks whole against the contract after relaying it. Latency: one request at a time over a
// keep-alive connection, direct and through the proxy taking turns, p50 and p99 of each and
// their difference. Throughput: 10 keep-alive connections, interleaved rounds, medians, twice:
// - with the service 20 ms away (a `delay` fault rule holds each answer 20 ms, the round trip
//   to a nearby cloud region): what putting the proxy in front of the real service costs a
//   caller's throughput. The target is met or missed here.
// - with the service on this machine, answering from memory in well under a millisecond: the
//   proxy's own ceiling. The proxy does the HTTP work of a server and of a client for each
//   request the sandbox serves as a server alone, and checks each answer, so here it is bound
//   by its CPU per request, which the table shows; its ratio is no target (see bench/README.md).
// Targets (shared/DESIGN.md): p50 added under 1 ms, throughput at least 0.8x direct.
import http from 'node:http';
import { requestJson } from './http-request.mjs';
import { measureInterleaved, rowNote } from './measure-server.mjs';
import { num, printHeading, printNote, printTable, printTargets, progress, ratio, target, times } from './report.mjs';
import { authorization, SANDBOX_CLI, sandboxBuilt, seedReceipts, startSandbox } from './sandbox-server.mjs';
import { freePort, spawnServer } from './spawn-server.mjs';

export const description = 'the drift proxy vs calling the upstream directly: added latency p50/p99, req/s';

const RECEIPTS = 25;
/** Sequential requests per turn, and turns of each, for the latency. */
const SEQUENTIAL = 400;
const TURNS = 6;
/** Throughput: connections, interleaved rounds and their length. */
const CONNECTIONS = 10;
const ROUNDS = 5;
const ROUND_SECONDS = 2;
/** Every answer keeps its rate-limit headers: a limit no run reaches. */
const RATE_LIMIT = 100_000_000;
/** How far away the service is in the throughput that the target reads: a nearby region's round trip. */
const DISTANCE_MS = 20;

export async function run() {
  printHeading(
    'Drift proxy',
    `GET /rest/v1/receipts (a page of ${RECEIPTS}) from the sandbox directly and through fflkit-sandbox proxy, each a child process. ` +
      `Latency: ${num(SEQUENTIAL)} requests one at a time over keep-alive, ${TURNS} turns each, taking turns. ` +
      `Throughput: ${CONNECTIONS} keep-alive connections, ${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s after a 1 s warm-up, medians; ` +
      `with the service ${DISTANCE_MS} ms away (a delay fault rule on the sandbox), then on this machine (the proxy's ceiling).`,
  );
  if (!sandboxBuilt()) {
    printTargets([
      target('p50 added < 1 ms', NaN, '<', 1, { unmeasured: 'sandbox not built' }),
      target(THROUGHPUT_TARGET, NaN, '>=', 0.8, { unmeasured: 'sandbox not built' }),
    ]);
    return { failures: [] };
  }

  const failures = [];
  let sandbox;
  let proxy;
  try {
    sandbox = await startSandbox({ quiet: true, rateLimit: RATE_LIMIT });
    await seedReceipts(sandbox.api, sandbox.token, { count: RECEIPTS, maxSeconds: 60 });
    proxy = await startProxy(sandbox.origin, sandbox.token);
    const headers = authorization(sandbox.token);
    const direct = `${sandbox.api}/receipts`;
    const through = `${proxy.api}/receipts`;

    progress('latency: one request at a time, direct and through the proxy in turns');
    const latency = { direct: [], proxy: [] };
    for (let turn = 0; turn < TURNS; turn++) {
      // Each turn begins with the other, so that drift in the machine's load hits both alike.
      const order = turn % 2 === 0 ? ['direct', 'proxy'] : ['proxy', 'direct'];
      for (const which of order)
        latency[which].push(...(await sequential(which === 'direct' ? direct : through, headers)));
    }
    const p = (values, q) => quantile(values, q);
    const added50 = p(latency.proxy, 0.5) - p(latency.direct, 0.5);
    const added99 = p(latency.proxy, 0.99) - p(latency.direct, 0.99);

    progress(`throughput with the service on this machine: the proxy's ceiling`);
    const near = await throughput(sandbox, proxy, direct, through, headers);
    progress(`throughput with the service ${DISTANCE_MS} ms away`);
    await requestJson(
      `${sandbox.origin}/_sandbox/faults`,
      { method: 'POST', headers, body: { operation: 'listReceipts', action: 'delay', delay_ms: DISTANCE_MS } },
      201,
    );
    const far = await throughput(sandbox, proxy, direct, through, headers);
    const checked = await proxy.checked();
    const rps = (row) => row.result?.rps ?? NaN;
    const rowOf = (label, row, latencies, note) => [
      label,
      latencies ? num(p(latencies, 0.5), 3) : '',
      latencies ? num(p(latencies, 0.99), 3) : '',
      num(rps(row)),
      num(row.result?.cpuPerRequestUs, 1),
      rowNote(row, note),
    ];
    printTable(
      ['path', 'p50 ms', 'p99 ms', 'req/s', 'CPU us/req', 'note'],
      [
        rowOf('direct', near[0], latency.direct, 'the sandbox on this machine'),
        rowOf('through the proxy', near[1], latency.proxy, "the proxy's own CPU, relaying and checking"),
        rowOf(`direct, ${DISTANCE_MS} ms away`, far[0], undefined, 'the sandbox, each answer held 20 ms'),
        rowOf(`through the proxy, ${DISTANCE_MS} ms away`, far[1], undefined, "the proxy's own CPU"),
      ],
    );
    printNote(
      `the proxy adds ${num(added50, 3)} ms at p50 and ${num(added99, 3)} ms at p99; it makes ${ratio(rps(far[1]), rps(far[0]))} of the direct rate with the service ${DISTANCE_MS} ms away, ` +
        `and ${ratio(rps(near[1]), rps(near[0]))} with the service on this machine, where its CPU per request bounds it; ` +
        `it checked ${num(checked.exchanges)} exchanges against the contract and found ${num(checked.violations.length)} violations.`,
    );
    printTargets([
      target('p50 added < 1 ms', added50, '<', 1, { show: (value) => `${num(value, 3)} ms` }),
      target(THROUGHPUT_TARGET, rps(far[1]) / rps(far[0]), '>=', 0.8, { show: times }),
    ]);
  } catch (error) {
    failures.push(`drift-proxy: ${error.message}`);
    printTargets([
      target('p50 added < 1 ms', NaN, '<', 1, { unmeasured: 'failed' }),
      target(THROUGHPUT_TARGET, NaN, '>=', 0.8, { unmeasured: 'failed' }),
    ]);
  } finally {
    await proxy?.server.stop();
    await sandbox?.server.stop();
  }
  return { failures };
}

const THROUGHPUT_TARGET = `throughput >= 0.8x direct, the service ${DISTANCE_MS} ms away`;

/** Rows of direct and proxied throughput, measured in interleaved rounds. */
function throughput(sandbox, proxy, direct, through, headers) {
  return measureInterleaved({
    connections: CONNECTIONS,
    rounds: ROUNDS,
    seconds: ROUND_SECONDS,
    servers: [
      { name: 'direct', start: async () => ({ server: kept(sandbox.server) }), load: () => ({ url: direct, headers }) },
      {
        name: 'through the proxy',
        start: async () => ({ server: kept(proxy.server) }),
        load: () => ({ url: through, headers }),
      },
    ],
  });
}

/** Starts `fflkit-sandbox proxy` in front of `upstream`. */
async function startProxy(upstream, token) {
  const port = await freePort();
  const server = spawnServer('drift proxy', [SANDBOX_CLI, 'proxy', '--upstream', upstream, '--port', String(port)]);
  const origin = `http://127.0.0.1:${port}`;
  try {
    await server.pollUntil(`${origin}/rest/v1/books`, { headers: authorization(token), timeoutMs: 60_000 });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    server,
    api: `${origin}/rest/v1`,
    /** What the proxy checked so far, from its own call. */
    checked: async () => (await requestJson(`${origin}/_drift/violations`, {})).data,
  };
}

/** A server that measureInterleaved may measure but not stop: this benchmark stops it once done with it. */
function kept(server) {
  return { cpuMs: () => server.cpuMs(), peakRssBytes: () => server.peakRssBytes(), stop: async () => undefined };
}

/** Latencies in milliseconds of `SEQUENTIAL` requests sent one after the other on one connection. */
async function sequential(url, headers) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = [];
  try {
    for (let n = 0; n < SEQUENTIAL; n++) {
      const started = process.hrtime.bigint();
      await new Promise((resolve, reject) => {
        const request = http.get(url, { agent, headers }, (response) => {
          if (response.statusCode !== 200) reject(new Error(`GET ${url} answered ${response.statusCode}`));
          response
            .on('data', () => undefined)
            .once('end', resolve)
            .once('error', reject);
        });
        request.once('error', reject);
      });
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  } finally {
    agent.destroy();
  }
  return latencies;
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
