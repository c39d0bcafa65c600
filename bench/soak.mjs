// Soak: the sandbox under a steady mixed load for at least 10 minutes with its data held fixed (a
// fixed set of accounts and receipts; reads, updates that change nothing, endpoints made and
// deleted; no receipt created), its request logs at their cap from the start. Its resident
// memory is sampled throughout; the slope of RSS over time after the warm-up is the row.
// Target (shared/DESIGN.md): under 1 MB per minute. Anything that grows with requests rather
// than with data (a cache without a bound, a listener or a timer left behind) shows as a slope.
//   FFLKIT_BENCH_SOAK_MINUTES=3 pnpm bench -- soak   # a shorter run, to look for growth; its
//                                                     # target then reads "not measured"
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { numberedReceiptBody } from '@fflkit/test-fixtures';
import { request } from './http-request.mjs';
import { num, printHeading, printNote, printTable, printTargets, progress, target } from './report.mjs';
import { authorization, createAccount, sandboxBuilt, startSandbox } from './sandbox-server.mjs';

export const description = 'RSS slope of the sandbox under 120 req/s for 10 min, data held fixed (MB/min)';

const ACCOUNTS = 10;
const RECEIPTS_PER_ACCOUNT = 200;
/** Requests per second of the steady load, as the soak that found the growth ran. */
const RATE = 120;
const MAX_IN_FLIGHT = 16;
const WARM_UP_MINUTES = 2;
const MINUTES = Number(process.env.FFLKIT_BENCH_SOAK_MINUTES ?? 10);
/** The least run the target is judged on. */
const TARGET_MINUTES = 10;
const SAMPLE_EVERY_MS = 5_000;
const LIMIT_MB_PER_MINUTE = 1;
/** Requests per account to fill its log to the cap (1,000 entries) before the warm-up. */
const FILL_LOG = 1_100;
/**
 * The load's connections, used in turn: a connection left idle past the server's keep-alive
 * time-out (5 s) may be closed by it just as a request goes out on it, which the default
 * last-in-first-out order of an agent makes likely at a steady low rate.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT, scheduling: 'fifo' });

export async function run({ scratchDir }) {
  printHeading(
    'Soak',
    `${ACCOUNTS} accounts of ${RECEIPTS_PER_ACCOUNT} receipts on a data file, request logs at their cap; ${RATE} req/s of reads, updates that change nothing and endpoints made and deleted, for ${WARM_UP_MINUTES} min of warm-up and ${MINUTES} min measured; RSS (VmRSS) every ${SAMPLE_EVERY_MS / 1000} s.`,
  );
  if (!sandboxBuilt()) {
    printTargets([soakTarget(Number.NaN, 'sandbox not built')]);
    return { failures: [] };
  }
  let started;
  try {
    started = await startSandbox({ dataFile: join(scratchDir, 'soak.json'), rateLimit: 0, quiet: true });
    const { server, origin, api } = started;
    const accounts = await seed(origin, api);
    progress(`filling ${ACCOUNTS} request logs to their cap (${FILL_LOG} requests each)`);
    await drive(
      accounts.flatMap((account) => Array.from({ length: FILL_LOG }, () => () => get(`${api}/books`, account))),
    );
    const plan = mixedLoad(origin, api, accounts);
    progress(`warming up for ${WARM_UP_MINUTES} min at ${RATE} req/s`);
    const warmUp = await steady(plan, WARM_UP_MINUTES * 60_000, () => server.assertRunning());
    progress(`measuring for ${MINUTES} min at ${RATE} req/s`);
    const samples = [];
    const sample = () => samples.push({ ms: performance.now(), rss: rssBytes(server.pid) });
    sample();
    const timer = setInterval(sample, SAMPLE_EVERY_MS);
    const measured = await steady(plan, MINUTES * 60_000, () => server.assertRunning()).finally(() =>
      clearInterval(timer),
    );
    sample();
    const slope = slopeMbPerMinute(samples);
    const first = samples[0].rss;
    const last = samples.at(-1).rss;
    const peak = Math.max(...samples.map((one) => one.rss));
    printTable(
      ['phase', 'requests', 'errors', 'req/s', 'RSS start MB', 'RSS end MB', 'RSS peak MB', 'slope MB/min'],
      [
        ['warm-up', num(warmUp.sent), num(warmUp.failed), num(warmUp.rate, 1), '-', '-', '-', '-'],
        [
          'measured',
          num(measured.sent),
          num(measured.failed),
          num(measured.rate, 1),
          num(first / 2 ** 20, 1),
          num(last / 2 ** 20, 1),
          num(peak / 2 ** 20, 1),
          num(slope, 2),
        ],
      ],
    );
    printNote(
      'the slope is the least-squares fit of RSS over time; a request answered with anything but 2xx counts as an error.',
    );
    const failures =
      measured.failed + warmUp.failed > 0 ? [`soak: ${measured.failed + warmUp.failed} requests failed`] : [];
    printTargets([
      soakTarget(
        MINUTES >= TARGET_MINUTES ? slope : Number.NaN,
        `${num(slope, 2)} MB/min over ${MINUTES} min, shorter than the ${TARGET_MINUTES} min the target needs`,
      ),
    ]);
    return { failures };
  } catch (error) {
    printTargets([soakTarget(Number.NaN, `FAILED: ${error.message.split('\n')[0]}`)]);
    return { failures: [`soak: ${error.message}`] };
  } finally {
    await started?.server.stop();
  }
}

function soakTarget(slope, unmeasured) {
  return target(`RSS slope after warm-up < ${LIMIT_MB_PER_MINUTE} MB/min`, slope, '<', LIMIT_MB_PER_MINUTE, {
    unmeasured,
    show: (value) => `${num(value, 2)} MB/min`,
  });
}

/** Makes the accounts and their receipts through the API; resolves with each token and its receipts. */
async function seed(origin, api) {
  progress(`seeding ${ACCOUNTS} accounts of ${RECEIPTS_PER_ACCOUNT} receipts`);
  const accounts = [];
  for (let at = 0; at < ACCOUNTS; at += 1) {
    const token = await createAccount(origin);
    const receipts = [];
    await drive(
      Array.from({ length: RECEIPTS_PER_ACCOUNT }, (_, n) => async () => {
        const response = await request(`${api}/receipts`, {
          agent,
          method: 'POST',
          headers: authorization(token),
          body: numberedReceiptBody(at * RECEIPTS_PER_ACCOUNT + n + 1),
        });
        if (response.status !== 201) throw new Error(`seeding: POST /receipts answered ${response.status}`);
        receipts.push(JSON.parse(response.body.toString('utf8')).data);
        return response;
      }),
    );
    accounts.push({ token, receipts });
  }
  return accounts;
}

/**
 * The requests of the steady load, in turn over the accounts: list pages, one receipt, a search,
 * the inventory, an update that sends the receipt's own values (it changes nothing), the
 * account's request log and a receipt's audit trail (control calls), and, one time in twenty, an
 * endpoint made then deleted (two writes that leave the data as it was).
 */
function mixedLoad(origin, api, accounts) {
  let turn = 0;
  return () => {
    turn += 1;
    const account = accounts[turn % accounts.length];
    const receipt = account.receipts[(turn * 7) % account.receipts.length];
    const page = 1 + (turn % Math.ceil(RECEIPTS_PER_ACCOUNT / 25));
    switch (turn % 20) {
      case 0:
        return async () => {
          const made = await request(`${api}/webhooks`, {
            agent,
            method: 'POST',
            headers: authorization(account.token),
            body: { url: `http://127.0.0.1:9/soak/${turn}`, events: ['receipt.created'] },
          });
          if (made.status !== 201) return made;
          const { id } = JSON.parse(made.body.toString('utf8')).data;
          return request(`${api}/webhooks/${id}`, { agent, method: 'DELETE', headers: authorization(account.token) });
        };
      case 1:
      case 5:
      case 9:
        return () =>
          request(`${api}/receipts/${receipt.id}`, {
            agent,
            method: 'PUT',
            headers: authorization(account.token),
            body: { model: receipt.model, caliber: receipt.caliber },
          });
      case 2:
        return () => get(`${api}/search?q=${encodeURIComponent(receipt.manufacturer.slice(0, 4))}`, account);
      case 3:
        return () => get(`${api}/inventory?page=${page}`, account);
      case 4:
        return () => get(`${origin}/_sandbox/requests?status=200`, account);
      case 6:
        return () => get(`${origin}/_sandbox/receipts/${receipt.id}/audit`, account);
      case 7:
      case 11:
      case 15:
        return () => get(`${api}/receipts/${receipt.id}`, account);
      default:
        return () => get(`${api}/receipts?page=${page}&per_page=25`, account);
    }
  };
}

function get(url, account) {
  return request(url, { agent, headers: authorization(account.token) });
}

/** Sends the given requests with at most MAX_IN_FLIGHT at once, as fast as they are answered. */
async function drive(calls) {
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const response = await calls[next++]();
      if (response.status >= 300) throw new Error(`answered ${response.status}: ${response.body.toString('utf8')}`);
    }
  };
  await Promise.all(Array.from({ length: MAX_IN_FLIGHT }, worker));
}

/**
 * Sends the plan's requests at RATE per second for `ms` (at most MAX_IN_FLIGHT at once), checking
 * the server between ticks; resolves with the counts and the rate reached.
 */
async function steady(plan, ms, check) {
  const start = performance.now();
  let sent = 0;
  let failed = 0;
  let inFlight = 0;
  const errors = [];
  while (performance.now() - start < ms) {
    check();
    const due = Math.floor(((performance.now() - start) / 1000) * RATE);
    while (sent < due && inFlight < MAX_IN_FLIGHT) {
      sent += 1;
      inFlight += 1;
      plan()()
        .then(
          (response) => {
            if (response.status >= 300) {
              failed += 1;
              if (errors.length < 3) errors.push(`${response.status} ${response.body.toString('utf8').slice(0, 200)}`);
            }
          },
          (error) => {
            failed += 1;
            if (errors.length < 3) errors.push(error.message);
          },
        )
        .finally(() => {
          inFlight -= 1;
        });
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  if (errors.length) progress(`failed requests, the first: ${errors.join(' | ')}`);
  return { sent, failed, rate: sent / ((performance.now() - start) / 1000) };
}

/** The resident set size of a process (VmRSS), in bytes. */
function rssBytes(pid) {
  const kb = Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)?.[1]);
  return kb * 1024;
}

/** The least-squares slope of RSS over time, in MB (MiB) per minute. */
function slopeMbPerMinute(samples) {
  const xs = samples.map((one) => one.ms / 60_000);
  const ys = samples.map((one) => one.rss / 2 ** 20);
  const meanX = xs.reduce((sum, x) => sum + x, 0) / xs.length;
  const meanY = ys.reduce((sum, y) => sum + y, 0) / ys.length;
  let covariance = 0;
  let variance = 0;
  for (let at = 0; at < xs.length; at += 1) {
    covariance += (xs[at] - meanX) * (ys[at] - meanY);
    variance += (xs[at] - meanX) ** 2;
  }
  return variance === 0 ? Number.NaN : covariance / variance;
}
