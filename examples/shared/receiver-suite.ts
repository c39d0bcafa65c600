import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkReceiver, startSandbox } from '@fflkit/sandbox';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The tests that every webhook receiver of another stack in examples/ passes (python-receiver,
// php-receiver), run against the receiver as its README starts it, on a free port: the receiver
// check of @fflkit/sandbox passes, a real delivery of the sandbox is processed once however often
// it comes, and what is not a delivery is answered as the webhooks docs say.

/** A receiver of examples/ as its README starts it. */
export interface ExampleReceiver {
  /** Its file, which names the suite: `receiver.py`. */
  readonly name: string;
  /** Starts it with `secret`, keeping what it saves in `folder`. */
  readonly spawn: (secret: string, folder: string) => ChildProcess;
  /** The URL of its webhooks path, once its output shows where it listens. */
  readonly url: (output: string) => string | undefined;
  /** The prefix of the serial numbers of its test receipts, in the lines it prints. */
  readonly serialPrefix: string;
  readonly secret: string;
  readonly token: string;
  /** Whether it promises exit 0 on SIGTERM (`php -S`, PHP's own server, makes no such promise). */
  readonly stopsWithZero: boolean;
}

/** Describes the tests of `example`. */
export function describeReceiver(example: ExampleReceiver): void {
  const SECRET = example.secret;
  const TOKEN = example.token;
  const SERIAL = `${example.serialPrefix}0012345`;
  let folder: string;
  let receiver: { url: string; output: () => string; stop: () => Promise<number | null> };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'fflkit-example-receiver-'));
    const child = example.spawn(SECRET, folder);
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    const url = await vi.waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`${example.name} exited: ${output}`);
        const found = example.url(output);
        if (found === undefined) throw new Error(`${example.name} printed no address yet: ${output}`);
        return found;
      },
      { timeout: 10_000, interval: 20 },
    );
    receiver = {
      url,
      output: () => output,
      stop: async () => {
        child.kill('SIGTERM');
        return exited;
      },
    };
  });

  afterAll(async () => {
    await receiver?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  /** The lines the receiver printed for the deliveries it processed. */
  const processed = (): string[] =>
    receiver
      .output()
      .split('\n')
      .filter((line) => line.startsWith('receipt.'));

  describe(example.name, () => {
    it('passes every check of fflkit-sandbox check-receiver, and processes the duplicate once', async () => {
      const before = processed().length;
      const report = await checkReceiver({ url: receiver.url, secret: SECRET });
      expect(report.checks.map((check) => [check.name, check.outcome, check.reason])).toEqual([
        ['ping', 'pass', null],
        ['forged_signature', 'pass', null],
        ['missing_signature', 'pass', null],
        ['duplicate_delivery', 'pass', null],
        ['out_of_order', 'pass', null],
        ['large_body', 'pass', null],
      ]);
      // The duplicate, the pair and the large body: four receipt events, one of them sent twice.
      expect(
        processed()
          .slice(before)
          .map((line) => line.split(' ')[0]),
      ).toEqual(['receipt.created', 'receipt.deleted', 'receipt.created', 'receipt.updated']);
    });

    it("processes the sandbox's delivery once, however often it is delivered again", async () => {
      const sandbox = await startSandbox({
        port: 0,
        fixtures: {
          accounts: [
            {
              name: 'Example Firearms Retail LLC',
              tokens: [{ token: TOKEN, name: 'receiver test' }],
              webhooks: [{ url: receiver.url, events: ['*'], secret: SECRET }],
            },
          ],
        },
      });
      try {
        const created = await fetch(`${sandbox.apiUrl}/receipts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            book: 'Main',
            serial_number: SERIAL,
            manufacturer: 'Example Arms Co.',
            model: 'EX-9 Compact',
            type: 'Pistol',
            caliber: '9mm Luger',
            receipt_date: '2025-03-14',
            received_from: 'Example Firearms Wholesale LLC',
            ffl_license: '9-99-999-01-6A-00001',
          }),
        });
        expect(created.status).toBe(201);
        const delivery = await vi.waitFor(
          async () => {
            const [latest] = await sandbox.deliveries.list(TOKEN);
            if (latest?.state !== 'succeeded') throw new Error(`not delivered yet: ${JSON.stringify(latest)}`);
            return latest;
          },
          { timeout: 10_000, interval: 50 },
        );
        const again = await sandbox.deliveries.redeliver(TOKEN, delivery.id);
        expect(again.attempts.map((attempt) => attempt.status_code)).toEqual([200, 200]);
        expect(processed().filter((line) => line.includes(`serial ${SERIAL}`))).toEqual([
          `receipt.created receipt 1 serial ${SERIAL} (delivery ${delivery.id})`,
        ]);
      } finally {
        await sandbox.stop();
      }
    });

    it.each([
      ['GET', '/webhooks', null, 405],
      ['POST', '/elsewhere', '{}', 404],
      ['POST', '/webhooks', '{}', 401],
    ])('answers %s %s with %i in the JSON shape of the webhooks docs', async (method, path, body, status) => {
      const response = await fetch(new URL(path, receiver.url), { method, body });
      expect(response.status).toBe(status);
      expect(Object.keys(await response.json())).toEqual(['message', 'outcome']);
      if (status === 405) expect(response.headers.get('allow')).toBe('POST');
    });

    it('answers a body over 1 MiB with 413, keeping none of it', async () => {
      const response = await fetch(receiver.url, { method: 'POST', body: 'x'.repeat(1024 * 1024 + 1) });
      expect([response.status, (await response.json()).outcome]).toEqual([413, 'body_too_large']);
    });

    if (example.stopsWithZero) {
      it('stops with exit 0 on SIGTERM', async () => {
        expect(await receiver.stop()).toBe(0);
      });
    }
  });
}
