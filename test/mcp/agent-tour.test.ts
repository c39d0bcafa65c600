import { type RunningSandbox, startSandbox } from '@fflkit/sandbox';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '@fflkit/types';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { answerOf, startReceiver, stdioClient } from './mcp-clients';

// The README's tour, as a coding agent takes it through `fflkit-mcp` over stdio, with tools
// only and no token to start with: an account, a receipt, its disposition, an endpoint to a
// local receiver, the delivery seen, and the clock moved through the retry schedule of a
// receiver that keeps failing, until the delivery is failed.

interface Delivery {
  id: string;
  event: string;
  state: string;
  next_attempt_at: string | null;
  attempts: { at: string; status_code: number | null }[];
}

describe('a scripted agent session', () => {
  let sandbox: RunningSandbox;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let agent: Client;

  beforeAll(async () => {
    sandbox = await startSandbox();
    receiver = await startReceiver(() => 500);
    ({ client: agent } = await stdioClient(['--base-url', sandbox.apiUrl]));
  }, 60_000);

  afterAll(async () => {
    await agent?.close();
    await sandbox?.stop();
    await receiver?.stop();
  });

  const call = async <T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}): Promise<T> =>
    answerOf<T>(await agent.callTool({ name, arguments: args }));

  it("reproduces the README's tour with tools alone", { timeout: 60_000 }, async () => {
    const account = await call<{ data: { name: string } }>('create_account', { name: 'Example Firearms Retail LLC' });
    expect(account.data.name).toBe('Example Firearms Retail LLC');
    const today = (await call<{ data: { now: string } }>('get_clock')).data.now.slice(0, 10);

    const receipt = await call<{ data: { id: number; record: number; status: string } }>('create_receipt', {
      book: 'Main',
      serial_number: 'EXA0012345',
      manufacturer: 'Example Arms Co.',
      model: 'EX-9',
      type: 'Pistol',
      caliber: '9mm Luger',
      receipt_date: today,
      received_from: 'Example Firearms Wholesale LLC',
      ffl_license: '9-99-999-01-6A-00001',
    });
    expect(receipt.data).toMatchObject({ record: 1, status: 'on_hand' });

    const endpoint = await call<{ data: { id: number }; secret: string }>('create_webhook', {
      url: receiver.url,
      events: ['receipt.disposed'],
    });
    expect(endpoint.secret).toMatch(/^whsec_/);

    const disposed = await call<{ data: { status: string } }>('dispose_receipt', {
      id: receipt.data.id,
      disposition_date: today,
      disposed_to: 'John Q. Example',
      form_4473_serial: '2025-000123',
    });
    expect(disposed.data.status).toBe('disposed');

    // The delivery, seen by the receiver and then in the sandbox's deliveries.
    await receiver.until(1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      event: 'receipt.disposed',
      data: { serial_number: 'EXA0012345' },
    });
    const deliveries = async (): Promise<Delivery[]> =>
      (await call<{ data: Delivery[] }>('list_deliveries', { webhook_id: endpoint.data.id })).data;
    const first = await vi.waitFor(async () => {
      const [delivery] = await deliveries();
      expect(delivery?.attempts).toHaveLength(1);
      return delivery!;
    });
    expect(first).toMatchObject({ event: 'receipt.disposed', state: 'pending', attempts: [{ status_code: 500 }] });

    // The clock moved through the retry schedule: each advance makes the attempt that falls due.
    for (const [index, seconds] of WEBHOOK_RETRY_DELAYS_SECONDS.entries()) {
      await call('advance_clock', { seconds });
      const [delivery] = await deliveries();
      expect(delivery?.attempts, `after the retry of ${seconds} s`).toHaveLength(index + 2);
    }
    const [last] = await deliveries();
    expect(last?.state).toBe('failed');
    expect(last?.next_attempt_at).toBeNull();
    const gaps = last!.attempts
      .slice(1)
      .map((attempt, index) => (Date.parse(attempt.at) - Date.parse(last!.attempts[index]!.at)) / 1000);
    expect(gaps.map((gap) => Math.round(gap))).toEqual([...WEBHOOK_RETRY_DELAYS_SECONDS]);
    expect(receiver.received).toHaveLength(WEBHOOK_RETRY_DELAYS_SECONDS.length + 1);
  });
});
