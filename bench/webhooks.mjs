// Webhooks: event-to-delivery latency and delivery throughput. The sandbox (the built CLI, on a
// data file, so each event is journalled before its delivery is sent) delivers `receipt.created`
// to a node:http receiver in this process that answers 200 at once. Latency runs from sending
// POST /rest/v1/receipts until the receiver has the whole delivery. Targets (shared/DESIGN.md):
// p50 under 20 ms, and 1,000 deliveries per second to a local receiver.
import { numberedReceiptBody } from '@fflkit/test-fixtures';
import http from 'node:http';
import { join } from 'node:path';
import { requestJson } from './http-request.mjs';
import { num, printHeading, printNote, printTable, printTargets, progress, target } from './report.mjs';
import { authorization, createAccount, sandboxBuilt, startSandbox } from './sandbox-server.mjs';

export const description = 'event-to-delivery latency p50/p99 and deliveries/s for 1,000 events to a local receiver';

/** Events sent one at a time, before anything is measured. */
const WARM_UP = 100;
/** Events sent one at a time: the latency of a single event, with nothing queued. */
const SEQUENTIAL = 300;
/** Events of the throughput run, and how many POSTs are in flight at once in it. */
const EVENTS = 1_000;
const CONCURRENCY = 16;
/** Every wait is bounded: a run that stalls is reported, never hung. */
const MAX_SECONDS = 120;

export async function run({ scratchDir }) {
  printHeading(
    'Webhooks',
    `receipt.created from POST /rest/v1/receipts (the sandbox on a data file, --rate-limit 0) to a node:http receiver answering 200; ` +
      `${num(SEQUENTIAL)} events one at a time, then ${num(EVENTS)} events with ${CONCURRENCY} POSTs in flight.`,
  );
  const unmeasured = sandboxBuilt() ? 'failed' : 'sandbox not built';
  if (!sandboxBuilt()) {
    printTargets([
      target('event to delivery p50 < 20 ms', NaN, '<', 20, { unmeasured }),
      target('>= 1,000 deliveries/s', NaN, '>=', 1000, { unmeasured }),
    ]);
    return { failures: [] };
  }

  const receiver = await startReceiver();
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let sandbox;
  try {
    sandbox = await startSandbox({ dataFile: join(scratchDir, 'webhooks.json'), quiet: true, rateLimit: 0 });
    const auth = authorization(sandbox.token);
    await requestJson(
      `${sandbox.api}/webhooks`,
      { method: 'POST', headers: auth, body: { url: `${receiver.url}/hook`, events: ['receipt.created'] } },
      201,
    );
    // An account without endpoints: the same POSTs, nothing to deliver, for the ceiling.
    const bare = authorization(await createAccount(sandbox.origin));
    let serial = 0;
    const post = (n) => postReceipt(agent, `${sandbox.api}/receipts`, auth, numberedReceiptBody(n));
    /** Sends `count` events on the account without endpoints; resolves with POSTs per second. */
    const sendBare = async (count, concurrency) => {
      const started = performance.now();
      let next = 0;
      const worker = async () => {
        while (next < count)
          await postReceipt(agent, `${sandbox.api}/receipts`, bare, numberedReceiptBody(1_000_000 + next++));
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      return count / ((performance.now() - started) / 1000);
    };
    /** Sends `count` events, at most `concurrency` POSTs at once; resolves with each latency. */
    const send = async (count, concurrency) => {
      const numbers = Array.from({ length: count }, () => (serial += 1));
      const sentAt = new Map();
      const deadline = performance.now() + MAX_SECONDS * 1000;
      const started = performance.now();
      let next = 0;
      const worker = async () => {
        while (next < numbers.length) {
          const n = numbers[next++];
          sentAt.set(n, performance.now());
          await post(n);
          if (concurrency === 1) await receiver.arrival(n, deadline);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      const arrivals = await Promise.all(numbers.map((n) => receiver.arrival(n, deadline)));
      const latencies = numbers.map((n, index) => arrivals[index] - sentAt.get(n));
      const seconds = (Math.max(...arrivals) - started) / 1000;
      return { latencies, seconds, count };
    };

    progress(`warming up with ${WARM_UP} events`);
    await send(WARM_UP, 1);
    progress(`${SEQUENTIAL} events one at a time`);
    const sequential = summarise(await send(SEQUENTIAL, 1));
    progress(`${EVENTS} POSTs without an endpoint, ${CONCURRENCY} in flight`);
    const ceiling = await sendBare(EVENTS, CONCURRENCY);
    progress(`${EVENTS} events, ${CONCURRENCY} POSTs in flight`);
    const loaded = summarise(await send(EVENTS, CONCURRENCY));
    const duplicates = receiver.duplicates();

    printTable(
      ['run', 'events', 'delivered/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'],
      [
        [
          'one at a time',
          num(SEQUENTIAL),
          num(sequential.perSecond),
          num(sequential.p50, 1),
          num(sequential.p90, 1),
          num(sequential.p99, 1),
          num(sequential.max, 1),
        ],
        [
          `${CONCURRENCY} in flight`,
          num(EVENTS),
          num(loaded.perSecond),
          num(loaded.p50, 1),
          num(loaded.p90, 1),
          num(loaded.p99, 1),
          num(loaded.max, 1),
        ],
      ],
    );
    printNote(
      `the same ${num(EVENTS)} POSTs to an account without endpoints: ${num(ceiling)}/s, the ceiling of deliveries/s here ` +
        `(with deliveries: ${(loaded.perSecond / ceiling).toFixed(2)}x of it). The sandbox signs, sends and journals each ` +
        'delivery in the process that answers the POSTs.',
    );
    printNote(
      'delivered/s counts from the first POST of the run to the last delivery received; one at a time, it is bounded by the ' +
        'round trip of each event. Every event was delivered exactly once' +
        (duplicates ? `, except ${duplicates} sent twice.` : '.'),
    );
    const ms = (value) => `${num(value, 1)} ms`;
    printTargets([
      target('event to delivery p50 < 20 ms (one at a time)', sequential.p50, '<', 20, { show: ms }),
      target(`event to delivery p50 < 20 ms (${CONCURRENCY} in flight)`, loaded.p50, '<', 20, { show: ms }),
      target('>= 1,000 deliveries/s', loaded.perSecond, '>=', 1000, { show: (value) => `${num(value)}/s` }),
    ]);
    return { failures: [] };
  } catch (error) {
    printTargets([
      target('event to delivery p50 < 20 ms', NaN, '<', 20, { unmeasured: 'failed' }),
      target('>= 1,000 deliveries/s', NaN, '>=', 1000, { unmeasured: 'failed' }),
    ]);
    return { failures: [`webhooks: ${error.message}`] };
  } finally {
    agent.destroy();
    await sandbox?.server.stop();
    await receiver.close();
  }
}

function summarise({ latencies, seconds, count }) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (fraction) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted.at(-1), perSecond: count / seconds };
}

/** POST one receipt on a keep-alive connection; rejects unless the answer is 201. */
function postReceipt(agent, url, headers, body) {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      agent,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      timeout: 30_000,
    });
    request.once('timeout', () => request.destroy(new Error(`POST ${url} timed out`)));
    request.once('error', reject);
    request.once('response', (response) => {
      response.resume();
      response.once('end', () =>
        response.statusCode === 201 ? resolve() : reject(new Error(`POST ${url} answered ${response.statusCode}`)),
      );
    });
    request.end(payload);
  });
}

/** A receiver that notes when the delivery of each serial number arrived. */
async function startReceiver() {
  const arrived = new Map();
  const waiting = new Map();
  let duplicates = 0;
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      response.writeHead(200).end();
      const serialNumber = JSON.parse(Buffer.concat(chunks).toString('utf8')).data.serial_number;
      const n = Number(/\d+$/.exec(serialNumber)?.[0]);
      if (arrived.has(n)) duplicates += 1;
      else arrived.set(n, at);
      waiting.get(n)?.(at);
      waiting.delete(n);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    duplicates: () => duplicates,
    /** Resolves with when the delivery of `n` arrived; rejects past the deadline. */
    arrival(n, deadline) {
      if (arrived.has(n)) return Promise.resolve(arrived.get(n));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the delivery of event ${n} did not arrive within ${MAX_SECONDS} s`)),
          Math.max(0, deadline - performance.now()),
        );
        waiting.set(n, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
