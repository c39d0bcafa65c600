import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkReceiver } from '@fflkit/sandbox';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createExpressReceiver } from '../src/create-express-receiver';
import { createNodeReceiver } from '../src/create-node-receiver';
import type { ReceiverOptions } from '../src/create-receiver-handler';
import { createFirearmLog } from '../src/firearm-log';

// The receiver check of @fflkit/sandbox, as an integrator's CI runs it against a receiver:
// both receivers pass every check.

const SECRET = 'whsec_ex4mpleRece1verCheck000000000000000';

describe.each([
  ['Express', createExpressReceiver],
  ['node:http', createNodeReceiver],
] as const)('the %s receiver', (_name, create: (options: ReceiverOptions) => RequestListener) => {
  it('passes every check of checkReceiver', async () => {
    const log = createFirearmLog();
    const server = createServer(create({ secret: SECRET, log }));
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    onTestFinished(async () => {
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    });
    const { port } = server.address() as AddressInfo;

    const report = await checkReceiver({ url: `http://127.0.0.1:${port}/webhooks`, secret: SECRET });

    expect(report.checks.map((check) => [check.name, check.outcome, check.reason])).toEqual([
      ['ping', 'pass', null],
      ['forged_signature', 'pass', null],
      ['missing_signature', 'pass', null],
      ['duplicate_delivery', 'pass', null],
      ['out_of_order', 'pass', null],
      ['large_body', 'pass', null],
    ]);
    expect(report.ok).toBe(true);
    // What the check cannot see from outside, the log shows: the duplicate was processed once.
    expect(log.entries.map((entry) => entry.event)).toEqual([
      'receipt.created',
      'receipt.deleted',
      'receipt.created',
      'receipt.updated',
    ]);
  });
});
