import { LogbookClient, systemClock, type Clock, type Receipt } from '@fflkit/sdk';
import { receiptBody } from '@fflkit/test-fixtures';
import type { AuditEntry, SandboxFault, SandboxFaultCreate, SandboxFixtures, WebhookEndpoint } from '@fflkit/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Face, StartFace } from './faces/face';
import { startMswFace } from './faces/start-msw-face';
import { startSandboxFace } from './faces/start-sandbox-face';

// The proof of the SDK's recovery: with its defaults (recovery on, two retries), under seeded
// fault rules that record a change and then lose its answer (a 5xx or a dropped connection after
// acting) or lose the request (a dropped connection before acting), on POST /receipts, POST
// /receipts/{id}/dispose, POST /webhooks and every DELETE, over many seeded runs on both faces:
// no receipt recorded twice, no receipt disposed twice, no endpoint whose secret nobody saw, and
// every call's outcome what the service holds, checked through the control API after each call.

const RUNS = Number(process.env['RECOVERY_RUNS'] ?? 40);

/** The timers of the SDK's back-off fire at once: the runs take no time, and nothing sleeps. */
const immediate: Clock = { ...systemClock, setTimeout: (callback) => systemClock.setTimeout(callback, 0) };

/** A small seeded generator (mulberry32) for the script of a run and its rules' seeds. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The rules of a run: each write meets a fault in about half of its attempts. */
function rulesFor(random: () => number): SandboxFaultCreate[] {
  const seed = () => Math.floor(random() * 0xffff_ffff);
  const status = () => ([500, 502, 503, 504] as const)[Math.floor(random() * 4)]!;
  const rules: SandboxFaultCreate[] = [];
  for (const operation of ['createReceipt', 'disposeReceipt', 'createWebhook']) {
    rules.push(
      { operation, action: 'status', status: status(), after_acting: true, probability: 0.25, seed: seed() },
      { operation, action: 'drop', after_acting: true, probability: 0.2, seed: seed() },
      { operation, action: 'drop', probability: 0.15, seed: seed() },
    );
  }
  // A DELETE is idempotent and retried; after acting, its retry's 404 counts as done.
  rules.push(
    { method: 'DELETE', action: 'status', status: status(), after_acting: true, probability: 0.3, seed: seed() },
    { method: 'DELETE', action: 'drop', after_acting: true, probability: 0.3, seed: seed() },
  );
  return rules;
}

/** The control API of one account of a face, which fault rules never touch. */
function controlOf(face: Face, token: string) {
  return async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${face.origin}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
  };
}

/** What a run did: the outcome of each call, and how often each rule fired. */
interface RunOutcome {
  readonly calls: string[];
  readonly fired: number[];
}

/** Totals over every run of a face. */
interface Tally {
  resolved: number;
  rejected: number;
  fired: number;
}

/** One seeded run on a fresh account of `face`: the script, each call checked against the service. */
async function run(face: Face, seed: number, tally: Tally): Promise<RunOutcome> {
  const random = seeded(seed);
  const { token } = await face.createAccount();
  const control = controlOf(face, token);
  for (const rule of rulesFor(random)) expect((await control('POST', '/_sandbox/faults', rule)).status).toBe(201);
  const logbook = new LogbookClient({
    token,
    baseUrl: face.apiUrl,
    rateLimit: false,
    timeout: Infinity,
    clock: immediate,
    random: () => 0,
  });
  const calls: string[] = [];
  const where = (call: string) => `${face.name}, seed ${seed}, ${call}`;
  const settle = async <T>(call: string, action: () => Promise<T>): Promise<T | undefined> => {
    try {
      const value = await action();
      calls.push(`${call}: resolved`);
      tally.resolved += 1;
      return value;
    } catch (error) {
      calls.push(`${call}: ${(error as Error).name}`);
      tally.rejected += 1;
      return undefined;
    }
  };
  const held = async (serial: string) =>
    (
      await control<{ data: Receipt[] }>('GET', `/_sandbox/receipts?serial_number=${serial}&per_page=1000`)
    ).body.data.filter((receipt) => receipt.serial_number === serial);
  const audit = async (id: number) =>
    (await control<{ data: AuditEntry[] }>('GET', `/_sandbox/receipts/${id}/audit`)).body.data;

  const created: Receipt[] = [];
  for (let n = 1; n <= 6; n += 1) {
    const serial = `REC-${seed}-${n}`;
    const receipt = await settle(`create ${n}`, () => logbook.receipts.create(receiptBody({ serial_number: serial })));
    const holding = await held(serial);
    if (receipt === undefined) {
      expect(holding, where(`a rejected create ${n} left nothing`)).toEqual([]);
    } else {
      expect(holding, where(`create ${n} recorded once, as returned`)).toEqual([receipt]);
      created.push(receipt);
    }
  }

  for (const receipt of created.filter((_, index) => index % 2 === 0)) {
    const disposition = {
      disposition_date: '2025-03-14',
      disposed_to: 'Jordan Example',
      form_4473_serial: `F-${seed}-${receipt.id}`,
    };
    const disposed = await settle(`dispose ${receipt.serial_number}`, () =>
      logbook.receipts.dispose(receipt.id, disposition),
    );
    const current = (await control<{ data: Receipt }>('GET', `/_sandbox/receipts/${receipt.id}`)).body.data;
    const dispositions = (await audit(receipt.id)).filter((entry) => entry.action === 'disposed');
    if (disposed === undefined) {
      expect([current.status, dispositions], where(`a rejected dispose of ${receipt.id} left it on hand`)).toEqual([
        'on_hand',
        [],
      ]);
    } else {
      expect(current, where(`dispose of ${receipt.id} as returned`)).toEqual(disposed);
      expect(dispositions, where(`dispose of ${receipt.id} recorded once`)).toHaveLength(1);
    }
  }

  const doomed = created[1];
  if (doomed !== undefined) {
    const deleted = await settle('delete receipt', () => logbook.receipts.delete(doomed.id).then(() => true));
    const gone = (await control('GET', `/_sandbox/receipts/${doomed.id}`)).status === 404;
    expect(gone, where(`the receipt delete's outcome`)).toBe(deleted === true);
  }

  const secrets = new Map<number, string>();
  for (let n = 1; n <= 2; n += 1) {
    const url = `https://hooks.example.com/${seed}/${n}`;
    const made = await settle(`webhooks.create ${n}`, () => logbook.webhooks.create({ url, events: ['*'] }));
    const endpoints = (await control<{ data: WebhookEndpoint[] }>('GET', '/_sandbox/webhooks')).body.data.filter(
      (endpoint) => endpoint.url === url,
    );
    if (made === undefined) {
      expect(endpoints, where(`a rejected webhooks.create ${n} left no endpoint`)).toEqual([]);
    } else {
      expect(
        endpoints.map((endpoint) => endpoint.id),
        where(`webhooks.create ${n} made one endpoint`),
      ).toEqual([made.endpoint.id]);
      secrets.set(made.endpoint.id, made.secret);
    }
  }
  const [first] = secrets.keys();
  if (first !== undefined) {
    const deleted = await settle('webhooks.delete', () => logbook.webhooks.delete(first).then(() => true));
    if (deleted === true) secrets.delete(first);
  }

  // No endpoint whose secret nobody saw: every one the service holds was returned, with its secret.
  const fixtures = (await control<SandboxFixtures>('GET', '/_sandbox/fixtures')).body;
  const heldSecrets = (fixtures.accounts[0]?.webhooks ?? []).map((webhook) => webhook.secret).sort();
  expect(heldSecrets, where('the endpoints held are those returned, with their secrets')).toEqual(
    [...secrets.values()].sort(),
  );

  const fired = (await control<{ data: SandboxFault[] }>('GET', '/_sandbox/faults')).body.data.map(
    (rule) => rule.fired,
  );
  tally.fired += fired.reduce((sum, count) => sum + count, 0);
  return { calls, fired };
}

const faces: Array<[name: string, start: StartFace]> = [
  ['sandbox', startSandboxFace],
  ['msw', startMswFace],
];
const outcomes = new Map<string, RunOutcome[]>();

describe.each(faces)('the SDK recovers without duplicates on the %s face', (name, start) => {
  let face: Face;
  beforeAll(async () => {
    face = await start({ rateLimit: 0 });
  });
  afterAll(() => face?.stop());

  it(`under seeded faults over ${RUNS} runs: 0 duplicate receipts, 0 double dispositions, 0 orphaned endpoints`, async () => {
    const tally: Tally = { resolved: 0, rejected: 0, fired: 0 };
    const runs: RunOutcome[] = [];
    for (let seed = 1; seed <= RUNS; seed += 1) runs.push(await run(face, seed, tally));
    outcomes.set(name, runs);
    // The faults did act, and recovery had work to do: most calls still resolve.
    expect(tally.fired).toBeGreaterThan(RUNS * 5);
    expect(tally.resolved).toBeGreaterThan(tally.rejected * 4);
    console.info(
      `${name}: ${RUNS} runs, ${tally.fired} faults fired, ${tally.resolved} calls resolved, ${tally.rejected} rejected`,
    );
  }, 120_000);

  it("under a delay past the client's time-out: the receipt made on arrival is found, not recorded again", async () => {
    const { token } = await face.createAccount();
    const control = controlOf(face, token);
    expect(
      (
        await control('POST', '/_sandbox/faults', {
          operation: 'createReceipt',
          action: 'delay',
          delay_ms: 300_000,
          times: 1,
        })
      ).status,
    ).toBe(201);
    const timeout = 50;
    // The time-out runs on the real clock; the back-off before the look-up ends at once.
    const clock: Clock = {
      ...systemClock,
      setTimeout: (callback, ms) => systemClock.setTimeout(callback, ms === timeout ? ms : 0),
    };
    const logbook = new LogbookClient({
      token,
      baseUrl: face.apiUrl,
      rateLimit: false,
      timeout,
      clock,
      random: () => 0,
    });
    const receipt = await logbook.receipts.create(receiptBody({ serial_number: 'DELAYED-1' }));
    const listed = (await control<{ data: Receipt[] }>('GET', '/_sandbox/receipts?serial_number=DELAYED-1')).body.data;
    expect(listed).toEqual([receipt]);
    const requests = (
      await control<{ data: Array<{ method: string; operation: string; fault: { action: string } | null }> }>(
        'GET',
        '/_sandbox/requests',
      )
    ).body.data;
    expect(requests.map((entry) => [entry.method, entry.operation, entry.fault?.action ?? null]).reverse()).toEqual([
      ['POST', 'createReceipt', 'delay'],
      ['GET', 'listReceipts', null],
    ]);
  });
});

it('both faces met the same faults and gave the same outcomes, run by run', () => {
  expect(outcomes.get('msw')).toEqual(outcomes.get('sandbox'));
  expect(outcomes.get('sandbox')).toHaveLength(RUNS);
});
