import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkReceiver, type ReceiverCheckReport } from '../../src/index';
import { LARGE_BODY_BYTES } from '../../src/receiver-check/check-events';
import { type LocalReceiver, type Received, type Reply, startReceiver } from '../support/local-receiver';

const SECRET = 'whsec_r3ce1verCheck0000000000000000000000000';
const receivers: LocalReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(reply: (request: Received) => Reply): Promise<LocalReceiver> {
  const started = await startReceiver(reply);
  receivers.push(started);
  return started;
}

/** Whether the request carries the signature of its body with the secret. */
function signedWith(secret: string, request: Received): boolean {
  const given = Buffer.from(String(request.headers['x-svc-signature'] ?? ''));
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A receiver as the interface document asks: 401 unless signed, 200 otherwise. */
const verifying = (request: Received): Reply => ({ status: signedWith(SECRET, request) ? 200 : 401 });

/** The outcome of each check, by name. */
const outcomes = (report: ReceiverCheckReport) =>
  Object.fromEntries(report.checks.map((check) => [check.name, check.outcome]));

/** A fake clock that a receiver moves forward as it answers. */
function clock() {
  const state = { ms: Date.UTC(2025, 2, 14, 15, 4, 5) };
  return { state, now: () => state.ms };
}

describe('checkReceiver({ url, secret })', () => {
  it('passes a receiver that verifies, acknowledges and answers at once, and says what it assumes', async () => {
    const good = await receiver(verifying);
    const report = await checkReceiver({ url: `${good.url}/webhooks`, secret: SECRET });
    expect(report).toMatchObject({ url: `${good.url}/webhooks`, ok: true, timeoutMs: 5000, warnAfterMs: 1000 });
    expect(outcomes(report)).toEqual({
      ping: 'pass',
      forged_signature: 'pass',
      missing_signature: 'pass',
      duplicate_delivery: 'pass',
      out_of_order: 'pass',
      large_body: 'pass',
    });
    expect(report.checks.map((check) => check.requests.map((request) => request.status))).toEqual([
      [200],
      [401],
      [401],
      [200, 200],
      [200, 200],
      [200],
    ]);
    expect(report.checks.filter((check) => check.assumes !== null).map((check) => check.name)).toEqual([
      'duplicate_delivery',
      'out_of_order',
    ]);
    expect(report.checks.every((check) => check.reason === null && check.fix === null)).toBe(true);
  });

  it('sends what the service sends: a signed POST with the headers of a delivery, to the URL given', async () => {
    const good = await receiver(verifying);
    await checkReceiver({ url: `${good.url}/hooks/logbook?env=test`, secret: SECRET });
    expect(good.received.map((request) => [request.method, request.path, request.headers['x-svc-event']])).toEqual([
      ['POST', '/hooks/logbook?env=test', 'ping'],
      ['POST', '/hooks/logbook?env=test', 'receipt.created'],
      ['POST', '/hooks/logbook?env=test', 'receipt.created'],
      ['POST', '/hooks/logbook?env=test', 'receipt.created'],
      ['POST', '/hooks/logbook?env=test', 'receipt.created'],
      ['POST', '/hooks/logbook?env=test', 'receipt.deleted'],
      ['POST', '/hooks/logbook?env=test', 'receipt.created'],
      ['POST', '/hooks/logbook?env=test', 'receipt.updated'],
    ]);
    for (const request of good.received) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toBe('Logbook-Webhook/1.0');
      expect(request.headers['x-svc-delivery']).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
    const [, forged, unsigned, first, again, deleted, created, large] = good.received;
    expect(String(forged?.headers['x-svc-signature'])).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(signedWith(SECRET, forged!)).toBe(false);
    expect(unsigned?.headers['x-svc-signature']).toBeUndefined();
    // The same delivery twice: the same id, body and signature.
    expect([again?.headers['x-svc-delivery'], again?.body, again?.headers['x-svc-signature']]).toEqual([
      first?.headers['x-svc-delivery'],
      first?.body,
      first?.headers['x-svc-signature'],
    ]);
    // The pair out of order: one receipt, the newer event first.
    const [newer, older] = [JSON.parse(deleted!.body), JSON.parse(created!.body)] as {
      timestamp: string;
      data: { id: number };
    }[];
    expect(newer?.data.id).toBe(older?.data.id);
    expect(Date.parse(newer!.timestamp)).toBeGreaterThan(Date.parse(older!.timestamp));
    // Distinct events never share their bytes, so a receiver deduplicating on the body keeps them apart.
    expect(new Set(good.received.map((request) => request.body)).size).toBe(7);
    expect(Buffer.byteLength(large!.body)).toBeGreaterThanOrEqual(LARGE_BODY_BYTES);
    expect(large!.body).toContain('https:\\/\\/files.example.com');
    expect(large!.body).toContain('Armer\\u00eda');
  });

  it('fails a receiver that skips verification, on the forged and the missing signature, with the reason and the fix', async () => {
    const trusting = await receiver(() => ({ status: 200 }));
    const report = await checkReceiver({ url: trusting.url, secret: SECRET });
    expect(report.ok).toBe(false);
    expect(outcomes(report)).toMatchObject({
      ping: 'pass',
      forged_signature: 'fail',
      missing_signature: 'fail',
      duplicate_delivery: 'pass',
    });
    expect(report.checks[1]).toMatchObject({
      reason:
        'It answered 200 to a delivery whose X-SVC-Signature was made with another secret: anyone can send it forged events.',
      fix: expect.stringContaining('answer 401 on a mismatch'),
    });
    expect(report.checks[2]?.reason).toBe(
      'It answered 200 to a delivery without X-SVC-Signature: anyone can send it unsigned events.',
    );
  });

  it('warns past 1 s and fails past 5 s, whatever the statuses', async () => {
    const time = clock();
    let delayMs = 1_500;
    const slow = await receiver((request) => {
      time.state.ms += delayMs;
      return verifying(request);
    });
    const warned = await checkReceiver({ url: slow.url, secret: SECRET, now: time.now });
    expect(warned.ok).toBe(true);
    expect(new Set(warned.checks.map((check) => check.outcome))).toEqual(new Set(['warn']));
    expect(warned.checks[0]).toMatchObject({
      reason: 'It took 1.5 s to answer: within the 5 s the service waits, but past 1 s.',
      fix: expect.stringContaining('do the work after answering'),
    });

    delayMs = 5_001;
    const failed = await checkReceiver({ url: slow.url, secret: SECRET, now: time.now });
    expect(failed.ok).toBe(false);
    expect(new Set(failed.checks.map((check) => check.outcome))).toEqual(new Set(['fail']));
    expect(failed.checks[0]?.reason).toBe('It took 5.001 s to answer; the service gives up after 5 s and retries.');
    expect(failed.checks[0]?.requests[0]?.durationMs).toBe(5_001);
  });

  it('fails a receiver that never answers at the time-out, and skips the rest', async () => {
    const hanging = await receiver(() => 'hang');
    const report = await checkReceiver({ url: hanging.url, secret: SECRET, timeoutMs: 50 });
    expect(report.ok).toBe(false);
    expect(report.checks[0]).toMatchObject({
      outcome: 'fail',
      reason: 'No answer within 0.05 seconds.',
      requests: [{ status: null, error: 'No answer within 0.05 seconds.' }],
    });
    expect(report.checks.slice(1).map((check) => [check.outcome, check.reason])).toEqual(
      Array(5).fill(['skipped', 'Not run: the signed ping got no answer (No answer within 0.05 seconds.).']),
    );
    expect(hanging.received).toHaveLength(1);
  });

  it('fails a receiver that refuses connections, saying to check that it runs', async () => {
    const port = await closedPort();
    const report = await checkReceiver({ url: `http://127.0.0.1:${port}/webhooks`, secret: SECRET });
    expect(report.ok).toBe(false);
    expect(report.checks[0]).toMatchObject({
      outcome: 'fail',
      reason: 'Connection refused.',
      fix: expect.stringContaining('receiver runs and listens at this URL'),
    });
    expect(outcomes(report)).toMatchObject({ forged_signature: 'skipped', large_body: 'skipped' });
  });

  it('fails a receiver whose body limit answers 413 to the large body, naming the limit to raise', async () => {
    const limited = await receiver((request) =>
      Buffer.byteLength(request.body) > 100_000 ? { status: 413 } : verifying(request),
    );
    const report = await checkReceiver({ url: limited.url, secret: SECRET });
    expect(outcomes(report)).toMatchObject({ ping: 'pass', large_body: 'fail' });
    expect(report.checks[5]?.reason).toMatch(/^It answered 413 to a delivery of \d+ bytes\.$/);
    expect(report.checks[5]?.fix).toContain('express.raw() and express.json() stop at 100 kB');
  });

  it('fails a receiver that verifies a body it parsed and serialised again, on the large body escaped as PHP writes it', async () => {
    const reserialising = await receiver((request) => {
      const again = { ...request, body: JSON.stringify(JSON.parse(request.body)) };
      return { status: signedWith(SECRET, again) ? 200 : 401 };
    });
    const report = await checkReceiver({ url: reserialising.url, secret: SECRET });
    expect(outcomes(report)).toMatchObject({ ping: 'pass', duplicate_delivery: 'pass', large_body: 'fail' });
    expect(report.checks[5]?.reason).toMatch(/^It answered 401 to a delivery of \d+ bytes whose text escapes/);
    expect(report.checks[5]?.fix).toContain('over the raw body bytes as they came');
  });

  it('fails a receiver that refuses the second sending of a delivery, or an event out of order', async () => {
    const seen = new Set<string>();
    const strict = await receiver((request) => {
      if (!signedWith(SECRET, request)) return { status: 401 };
      const id = String(request.headers['x-svc-delivery']);
      if (seen.has(id)) return { status: 409 };
      seen.add(id);
      return { status: request.headers['x-svc-event'] === 'receipt.deleted' ? 404 : 200 };
    });
    const report = await checkReceiver({ url: strict.url, secret: SECRET });
    expect(outcomes(report)).toMatchObject({ duplicate_delivery: 'fail', out_of_order: 'fail' });
    expect(report.checks[3]?.reason).toBe(
      'It answered 409 to the same delivery sent again (same X-SVC-Delivery, body and signature); the service takes anything but a 2xx as a failure and retries.',
    );
    expect(report.checks[4]?.reason).toMatch(/^It answered 404 to a receipt\.deleted of a receipt it never heard of;/);
  });

  it('warns when a missing signature is refused with another 4xx than 401, and fails a redirect', async () => {
    const close = await receiver((request) => {
      if (request.headers['x-svc-signature'] === undefined) return { status: 400 };
      if (request.headers['x-svc-event'] === 'ping') return { status: 308, headers: { location: '/elsewhere' } };
      return verifying(request);
    });
    const report = await checkReceiver({ url: close.url, secret: SECRET });
    expect(report.checks[2]).toMatchObject({
      outcome: 'warn',
      reason: 'It answered 400 to a delivery without X-SVC-Signature; 401 is what the interface document expects.',
    });
    expect(report.checks[0]).toMatchObject({
      outcome: 'fail',
      reason: 'It answered 308 to a signed ping: the service does not follow redirects.',
    });
  });

  it.each([
    [{ url: 'ftp://127.0.0.1/webhooks', secret: SECRET }, /url must be the receiver's absolute http\(s\) URL/],
    [{ url: '/webhooks', secret: SECRET }, /url must be the receiver's absolute http\(s\) URL/],
    [
      { url: 'http://127.0.0.1/webhooks', secret: 'sk_live_abc' },
      /secret must be the endpoint's signing secret .* whsec_\.\.\. with its prefix; got a string starting "sk_liv"/,
    ],
    [{ url: 'http://127.0.0.1/webhooks', secret: 'whsec_' }, /secret must be the endpoint's signing secret/],
    [{ url: 'http://127.0.0.1/webhooks', secret: SECRET, timeoutMs: 0 }, /timeoutMs must be a positive number/],
    [
      { url: 'http://127.0.0.1/webhooks', secret: SECRET, warnAfterMs: 6000 },
      /warnAfterMs must be a number of milliseconds from 0 to timeoutMs \(5000\)/,
    ],
  ])('throws a TypeError naming the package for %j', async (options, message) => {
    const failure = await checkReceiver(options).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toMatch(/^\[@fflkit\/sandbox\] checkReceiver\(\): /);
    expect((failure as Error).message).toMatch(message);
  });
});

/** A port on the loopback interface that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  await new Promise((closed) => server.close(closed));
  return port;
}
