// Reads: requests per second of the first page of receipts (25 of 10,000) over keep-alive
// connections, for the sandbox, a bare Hapi route and a bare node:http server answering the
// sandbox's exact bytes, json-server and Prism's mock. The bare Hapi row is the framework's
// floor: what lies between it and the sandbox is the sandbox's own work, what lies between it
// and bare node:http is Hapi's.
// Targets: the sandbox at least 0.9x the bare Hapi route's rate and at most 1.15x its CPU time per
// answer (steadier than the rate on a shared machine), at least json-server, at least 3x Prism.
// Every server is measured with the load generator on CPUs of its own (measure-server.mjs).
import { join } from 'node:path';
import { request } from './http-request.mjs';
import { measureInterleaved, measureServer, rowNote } from './measure-server.mjs';
import { PRISM_HEADERS, startBareHapiServer, startBareServer, startJsonServer, startPrism } from './peer-servers.mjs';
import { receiptPage, writeJsonServerDb } from './receipt-fixtures.mjs';
import { num, printHeading, printNote, printTable, printTargets, progress, ratio, target, times } from './report.mjs';
import { authorization, sandboxBuilt } from './sandbox-server.mjs';
import { describeSeeding, startSeededSandbox } from './seeded-sandbox.mjs';

export const description =
  'GET /receipts (first page of 10k) req/s: sandbox, bare Hapi, bare node:http, json-server, Prism';

const RECEIPTS = 10_000;
const CONNECTIONS = 10;
const SECONDS = 5;
/** Interleaved rounds of the sandbox and the bare servers, and their length. */
const ROUNDS = 5;
const ROUND_SECONDS = 2;
/** Hop-by-hop and per-response headers the bare server must not replay. */
const NOT_REPLAYED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export async function run({ scratchDir, reseed }) {
  const dbFile = join(scratchDir, 'reads-db.json');
  await writeJsonServerDb(dbFile, RECEIPTS);
  const shape = { connections: CONNECTIONS, seconds: SECONDS, apart: true };
  const notes = [];

  let recorded = null;
  let replayed = "the sandbox's response bytes";
  // The bare servers answer what the sandbox answered: it starts first.
  const withRecording = () => {
    if (recorded) return recorded;
    const body = Buffer.from(JSON.stringify(receiptPage(RECEIPTS)));
    recorded = { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body };
    replayed = "a synthetic page in the contract's shape";
    notes.push(
      "the bare servers answer a synthetic page in the contract's shape (25 receipts), since the sandbox gave none.",
    );
    return recorded;
  };
  const [sandbox, bareHapi, bare] = await measureInterleaved({
    apart: true,
    connections: CONNECTIONS,
    rounds: ROUNDS,
    seconds: ROUND_SECONDS,
    servers: [
      {
        name: 'sandbox',
        start: async () => {
          if (!sandboxBuilt()) return { skipped: 'not built' };
          const started = await startSeededSandbox({ count: RECEIPTS, scratchDir, reseed, maxSeedSeconds: 120 });
          if (!started.server) {
            const { done, seconds } = started.seeding;
            return { skipped: `seeding too slow: ${done} of ${RECEIPTS} receipts in ${seconds.toFixed(0)} s` };
          }
          notes.push(describeSeeding(started.seeding, RECEIPTS));
          const answer = await request(`${started.api}/receipts`, { headers: authorization(started.token) });
          if (answer.status !== 200)
            throw new Error(
              `GET /rest/v1/receipts answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`,
            );
          recorded = { status: answer.status, headers: replayable(answer.headers), body: answer.body };
          return { ...started, facts: { bytes: answer.body.length } };
        },
        load: ({ api, token }) => ({ url: `${api}/receipts`, headers: authorization(token) }),
      },
      {
        name: 'bare Hapi',
        start: async () => ({
          ...(await startBareHapiServer(withRecording(), scratchDir)),
          facts: { bytes: withRecording().body.length },
        }),
        load: ({ baseUrl }) => ({ url: `${baseUrl}/rest/v1/receipts` }),
      },
      {
        name: 'bare node:http',
        start: async () => ({
          ...(await startBareServer(withRecording(), scratchDir)),
          facts: { bytes: withRecording().body.length },
        }),
        load: ({ baseUrl }) => ({ url: `${baseUrl}/rest/v1/receipts` }),
      },
    ],
  });

  const jsonServer = await measureServer({
    name: 'json-server',
    ...shape,
    start: async () => withBytes(await startJsonServer(dbFile), '/receipts?_page=1&_per_page=25'),
    load: ({ baseUrl }) => ({ url: `${baseUrl}/receipts?_page=1&_per_page=25` }),
  });

  const prism = await measureServer({
    name: 'Prism',
    ...shape,
    start: async () => withBytes(await startPrism(), '/receipts', PRISM_HEADERS),
    load: ({ baseUrl }) => ({ url: `${baseUrl}/receipts`, headers: PRISM_HEADERS }),
  });

  const rows = [sandbox, bareHapi, bare, jsonServer, prism];
  const how = {
    sandbox: `GET /rest/v1/receipts, ${num(RECEIPTS)} receipts`,
    'bare Hapi': `one Hapi route answering ${replayed}`,
    'bare node:http': replayed,
    'json-server': `GET /receipts?_page=1&_per_page=25, ${num(RECEIPTS)} receipts`,
    Prism: 'GET /receipts (static example)',
  };
  const rps = (row) => row.result?.rps ?? NaN;
  const cpu = (row) => row.result?.cpuPerRequestUs ?? NaN;

  printHeading(
    'Reads',
    `${CONNECTIONS} keep-alive connections; req/s counts 2xx answers. The sandbox and the bare servers are measured side by side: ` +
      `${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s each after a 1 s warm-up, medians; json-server and Prism ${SECONDS} s each. ` +
      "CPU us/req is the server process's CPU time (every thread) per answer.",
  );
  printTable(
    ['server', 'req/s', 'p50 ms', 'p99 ms', 'CPU us/req', 'body bytes', 'peak RSS MB', 'sandbox / server', 'note'],
    rows.map((row) => [
      row.name,
      num(rps(row)),
      num(row.result?.p50),
      num(row.result?.p99),
      num(cpu(row), 1),
      num(row.facts.bytes),
      num(row.peakRss ? row.peakRss / 2 ** 20 : null),
      row === sandbox ? '' : ratio(rps(sandbox), rps(row)),
      rowNote(row, how[row.name]),
    ]),
  );
  for (const note of notes) printNote(note);
  const unpinned = rows.filter((row) => row.result !== undefined && row.pinned !== true).map((row) => row.name);
  printNote(
    unpinned.length === 0
      ? "each server's process ran on CPUs of its own and the load generator on another (taskset)."
      : `not pinned apart from the load generator (no taskset, a single CPU, or taskset refused): ${unpinned.join(', ')}; on a machine of few cores, the two then share cores and the CPU per answer spreads more between rounds.`,
  );
  printNote(
    `bare Hapi makes ${ratio(rps(bareHapi), rps(bare))} of bare node:http's rate (the framework's share of the gap); ` +
      `the sandbox makes ${ratio(rps(sandbox), rps(bareHapi))} of bare Hapi's (its own share). ` +
      `In CPU time per answer, the sandbox spends ${ratio(cpu(sandbox), cpu(bareHapi))} of bare Hapi's, bare Hapi ${ratio(cpu(bareHapi), cpu(bare))} of bare node:http's.`,
  );
  printNote(
    "Prism answers its one-receipt example, json-server its own envelope: their bodies differ in size from the sandbox's.",
  );

  const unmeasured = sandbox.skipped ? `sandbox ${sandbox.skipped}` : 'sandbox failed';
  printTargets([
    target('sandbox >= 0.9x bare Hapi', rps(sandbox) / rps(bareHapi), '>=', 0.9, { unmeasured, show: times }),
    target('sandbox CPU per answer <= 1.15x bare Hapi', cpu(sandbox) / cpu(bareHapi), '<=', 1.15, {
      unmeasured,
      show: times,
    }),
    target('sandbox >= json-server', rps(sandbox) / rps(jsonServer), '>=', 1, { unmeasured, show: times }),
    target('sandbox >= 3x Prism', rps(sandbox) / rps(prism), '>=', 3, { unmeasured, show: times }),
  ]);

  return { failures: rows.filter((row) => row.failure).map((row) => `reads, ${row.name}: ${row.failure}`) };
}

/** Adds the body size of one GET of `path` to a started peer, checking it answers 200. */
async function withBytes(started, path, headers = {}) {
  const answer = await request(`${started.baseUrl}${path}`, { headers });
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
  progress(`${started.server.label}: answers ${answer.body.length} bytes`);
  return { ...started, facts: { bytes: answer.body.length } };
}

function replayable(headers) {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !NOT_REPLAYED.has(name)));
}
