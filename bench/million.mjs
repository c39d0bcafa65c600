// A million receipts in one account, on a data file: the time to open it (spawn to the first
// authenticated 200), durable POST /receipts and the first page of GET /receipts under load,
// the filtered lists and /search (each a scan of every receipt), and a clean stop, which folds
// the journal of those writes into the data file. Peak RSS is the server's VmHWM over all of it.
// Targets (shared/DESIGN.md): open at most 3 s, peak RSS at most 1 GB, POST p99 under 50 ms,
// GET p99 under 10 ms, stop at most 10 s. The open's floor is measured last, on the data file
// the stop wrote: each receipt's line parsed and kept (parse-floor.mjs), which no open of the
// receipts as JavaScript objects can go below.
import { numberedReceiptBody } from '@fflkit/test-fixtures';
import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { request } from './http-request.mjs';
import { loadProblems, runLoad } from './load.mjs';
import { mb, num, printHeading, printNote, printTable, printTargets, progress, target } from './report.mjs';
import { authorization, sandboxBuilt } from './sandbox-server.mjs';
import { describeSeeding, startSeededSandbox } from './seeded-sandbox.mjs';

export const description = 'a million receipts: open, peak RSS, POST and GET p99, filters and /search, clean stop';

const RECEIPTS = 1_000_000;
const CONNECTIONS = 10;
const POST_SECONDS = 10;
const GET_SECONDS = 5;
/** Requests per filtered list, each with a term of its own so that no answer comes from a cache. */
const SCANS = 10;
/** How long a stop may take before the harness kills the server. */
const STOP_GRACE_MS = 120_000;
const PARSE_FLOOR = fileURLToPath(new URL('parse-floor.mjs', import.meta.url));

/** The filtered lists reported, each a function of the request's number (distinct queries). */
const SCANNED = [
  ['GET /receipts?serial_number=', (n) => `/receipts?serial_number=BB0000${String(1234 + n * 7919).padStart(5, '0')}`],
  [
    'GET /receipts?manufacturer=',
    (n) => `/receipts?manufacturer=${['Example', 'Arms', 'Co.', 'example arms'][n % 4]}&page=${n + 1}`,
  ],
  [
    'GET /receipts?since=',
    (n) => `/receipts?since=${encodeURIComponent(`2025-0${1 + (n % 9)}-01T00:00:00Z`)}&page=${n + 1}`,
  ],
  ['GET /receipts?status=on_hand&page=', (n) => `/receipts?status=on_hand&page=${1000 + n}`],
  ['GET /search?q=', (n) => `/search?q=BB00${String(77 + n * 13).padStart(3, '0')}`],
  [
    'GET /search?q=&field=model',
    (n) => `/search?q=${['EX-9', 'Compact', 'ex-9 c', 'X-9'][n % 4]}&field=model&page=${n + 1}`,
  ],
];

export async function run({ scratchDir, reseed }) {
  printHeading(
    'A million receipts',
    `One account of ${num(RECEIPTS)} receipts in a data file (--rate-limit 0): open (spawn to the first authenticated 200), ` +
      `${CONNECTIONS} connections of POST /receipts for ${POST_SECONDS} s, then of GET /receipts for ${GET_SECONDS} s after a 1 s warm-up, ` +
      `${SCANS} requests one at a time per filtered list, then a stop (SIGTERM to exit) that folds the journal into the data file.`,
  );
  const rows = [];
  const notes = [];
  const failures = [];
  const figures = {};
  let started;
  try {
    if (!sandboxBuilt()) throw Object.assign(new Error('not built'), { skipped: true });
    progress(`${num(RECEIPTS)} receipts: opening`);
    started = await startSeededSandbox({ count: RECEIPTS, scratchDir, reseed, maxSeedSeconds: 120 });
    if (!started.server)
      throw Object.assign(new Error('seeding through the API is too slow for a million receipts'), { skipped: true });
    notes.push(describeSeeding(started.seeding, RECEIPTS));
    const { server, api, token } = started;
    figures.openMs = started.readyMs;
    figures.openRss = server.peakRssBytes();
    rows.push([
      'open the data file',
      num(started.readyMs),
      '',
      '',
      '',
      mb(figures.openRss),
      `spawn to the first authenticated 200, ${num(server.cpuMs())} ms of CPU (less swayed by other work on the machine)`,
    ]);

    progress(`${num(RECEIPTS)} receipts: POST /receipts for ${POST_SECONDS} s`);
    const posts = await runLoad({
      url: `${api}/receipts`,
      method: 'POST',
      headers: authorization(token),
      makeBody: (n) => numberedReceiptBody(RECEIPTS + 1 + n),
      connections: CONNECTIONS,
      seconds: POST_SECONDS,
      timeoutSeconds: 60,
    });
    const postProblems = loadProblems(posts);
    if (postProblems) failures.push(`million, POST /receipts: ${postProblems}`);
    figures.postP99 = postProblems ? NaN : posts.p99;
    rows.push([
      'POST /receipts',
      num(posts.rps),
      num(posts.p50),
      num(posts.p99),
      num(posts.ok),
      mb(server.peakRssBytes()),
      postProblems ? `FAILED: ${postProblems}` : 'durable before the answer',
    ]);

    progress(`${num(RECEIPTS)} receipts: GET /receipts for ${GET_SECONDS} s`);
    const getLoad = { url: `${api}/receipts`, headers: authorization(token), connections: CONNECTIONS };
    await runLoad({ ...getLoad, seconds: 1 });
    const gets = await runLoad({ ...getLoad, seconds: GET_SECONDS });
    const getProblems = loadProblems(gets);
    if (getProblems) failures.push(`million, GET /receipts: ${getProblems}`);
    figures.getP99 = getProblems ? NaN : gets.p99;
    rows.push([
      'GET /receipts (first page)',
      num(gets.rps),
      num(gets.p50),
      num(gets.p99),
      num(gets.ok),
      mb(server.peakRssBytes()),
      getProblems ? `FAILED: ${getProblems}` : 'no filter',
    ]);

    for (const [label, path] of SCANNED) {
      progress(`${num(RECEIPTS)} receipts: ${label}`);
      const times = [];
      let total;
      for (let n = 0; n < SCANS; n++) {
        const begun = performance.now();
        const answer = await request(`${api}${path(n)}`, { headers: authorization(token), timeoutMs: 30_000 });
        times.push(performance.now() - begun);
        if (answer.status !== 200)
          throw new Error(`${label} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 200)}`);
        total ??= JSON.parse(answer.body.toString('utf8')).meta?.total;
      }
      times.sort((a, b) => a - b);
      rows.push([
        label,
        '',
        num(times[Math.floor(SCANS / 2)], 1),
        num(times.at(-1), 1),
        '',
        mb(server.peakRssBytes()),
        `${SCANS} requests one at a time, each a new query (the first matched ${num(total)})`,
      ]);
    }

    progress(`${num(RECEIPTS)} receipts: stopping`);
    const stop = await timedStop(server);
    started = undefined;
    figures.stopMs = stop.ms;
    figures.peakRss = stop.peakRss;
    const journal = await journalBytes(stop.dataFile);
    const clean = stop.exit.code === 0 && journal === 0;
    if (!clean) failures.push(`million, stop: exit ${JSON.stringify(stop.exit)}, ${journal} journal bytes left`);
    figures.stopMs = clean ? stop.ms : NaN;
    rows.push([
      'stop (fold the journal)',
      num(stop.ms),
      '',
      '',
      '',
      mb(stop.peakRss),
      clean
        ? `exit 0, no journal left, data file ${mb(stop.dataFileBytes)} MB`
        : `FAILED: exit ${stop.exit.code}, ${journal} journal bytes left`,
    ]);

    progress(`${num(RECEIPTS)} receipts: the floor of the open`);
    const floor = await parseFloor(stop.dataFile);
    rows.push([
      'floor: parse each receipt, keep it',
      num(floor.ms),
      '',
      '',
      num(floor.receipts),
      mb(floor.maxRssBytes),
      `JSON.parse of each receipt's line of the data file, the objects kept, nothing else: ${num(floor.cpuMs)} ms of CPU`,
    ]);
    notes.push(
      `the open took ${(figures.openMs / floor.ms).toFixed(2)}x its floor: no open that holds each receipt as a JavaScript object parsed from its line takes less than the floor on this machine.`,
    );
  } catch (error) {
    if (!error.skipped) failures.push(`million: ${error.stack ?? error}`);
    notes.push(
      error.skipped ? `the sandbox was not measured: ${error.message}.` : `FAILED: ${error.message.split('\n')[0]}`,
    );
  } finally {
    await started?.server.stop(STOP_GRACE_MS);
  }

  printTable(['step', 'ms or req/s', 'p50 ms', 'p99 ms', 'answered', 'peak RSS MB', 'note'], rows);
  for (const note of notes) printNote(note);
  printNote(
    'the first row is the time to open in ms; POST and GET rows give req/s; the filtered rows give the median and the slowest of their requests; the stop and floor rows give their time in ms, the floor row the receipts it parsed in the answered column.',
  );

  const show = (unit) => (value) => `${num(value)} ${unit}`;
  printTargets([
    target('open at most 3 s', figures.openMs ?? NaN, '<=', 3_000, { show: show('ms') }),
    target('peak RSS at most 1 GB', (figures.peakRss ?? NaN) / 2 ** 20, '<=', 1024, { show: show('MB') }),
    target('POST /receipts p99 < 50 ms', figures.postP99 ?? NaN, '<', 50, { show: show('ms') }),
    target('GET /receipts p99 < 10 ms', figures.getP99 ?? NaN, '<', 10, { show: show('ms') }),
    target('clean stop at most 10 s', figures.stopMs ?? NaN, '<=', 10_000, { show: show('ms') }),
  ]);
  return { failures };
}

/**
 * SIGTERM, then waits for the exit, reading the peak RSS until then: the fold at stop is part of
 * the peak. Resolves with the time to exit, the peak, the exit and the data file's size.
 */
async function timedStop(server) {
  const dataFile = server.args[server.args.indexOf('--data') + 1];
  let peakRss = server.peakRssBytes();
  const begun = performance.now();
  const stopping = server.stop(STOP_GRACE_MS);
  let exit;
  while (!(exit = server.exit)) {
    try {
      peakRss = Math.max(peakRss, server.peakRssBytes());
    } catch {
      // The process has exited between two reads.
    }
    await sleep(20);
  }
  await stopping;
  const ms = performance.now() - begun;
  return { ms, peakRss, exit, dataFile, dataFileBytes: (await stat(dataFile)).size };
}

/** Runs parse-floor.mjs on `dataFile` in a process of its own; resolves with what it printed. */
async function parseFloor(dataFile) {
  const { stdout } = await promisify(execFile)(process.execPath, [PARSE_FLOOR, dataFile], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout);
}

/** Bytes in the journal segments beside the data file. */
async function journalBytes(file) {
  let bytes = 0;
  for (const name of await readdir(dirname(file))) {
    if (name.startsWith(`${basename(file)}.journal.`)) bytes += (await stat(`${dirname(file)}/${name}`)).size;
  }
  return bytes;
}
