import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_EVENT_STREAM_BACKLOG, MAX_EVENT_STREAMS } from '../src/event-stream-route';
import { createSandbox, type Sandbox } from '../src/sandbox';
import { receiptBody } from './support/receipt-body';

const opened: Sandbox[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((sandbox) => sandbox.stop()));
});

/** Reads server-sent events from a response body until `count` have come. */
async function events(response: Response, count: number): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const found: { event: string; data: Record<string, unknown> }[] = [];
  let text = '';
  while (found.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
    for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n')) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event !== undefined && data !== undefined)
        found.push({ event, data: JSON.parse(data) as Record<string, unknown> });
    }
  }
  await reader.cancel();
  return found;
}

describe('GET /_sandbox/events', () => {
  it("streams the account's requests and deliveries as server-sent events, and 401 without a token", async () => {
    const sandbox = await createSandbox({ host: '127.0.0.1', port: 0, data: undefined, rateLimit: 0 });
    opened.push(sandbox);
    await sandbox.start();
    const { token } = await sandbox.createAccount();
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${sandbox.origin}/_sandbox/events`)).status).toBe(401);
    const stream = await fetch(`${sandbox.origin}/_sandbox/events`, { headers: auth });
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const heard = events(stream, 3);
    await fetch(`${sandbox.origin}/rest/v1/webhooks`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['*'] }),
    });
    await fetch(`${sandbox.origin}/rest/v1/receipts`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: receiptBody(1),
    });
    const [first, second, third] = await heard;
    expect(first).toMatchObject({ event: 'request', data: { method: 'POST', path: '/rest/v1/webhooks', status: 201 } });
    expect([second?.event, third?.event].sort()).toEqual(['delivery', 'request']);
  });

  it('ends every stream when the sandbox stops, so that stopping does not wait for them', async () => {
    const sandbox = await createSandbox({ host: '127.0.0.1', port: 0, data: undefined });
    await sandbox.start();
    const { token } = await sandbox.createAccount();
    const stream = await fetch(`${sandbox.origin}/_sandbox/events`, { headers: { authorization: `Bearer ${token}` } });
    const started = Date.now();
    await sandbox.stop();
    expect(Date.now() - started).toBeLessThan(5000);
    const reader = stream.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read());
  });
});

describe('GET /_sandbox/events, bounded', () => {
  it('cuts off a client that stops reading once it falls 4 MiB behind', async () => {
    const sandbox = await createSandbox({ host: '127.0.0.1', port: 0, data: undefined, rateLimit: 0 });
    opened.push(sandbox);
    await sandbox.start();
    const { token } = await sandbox.createAccount();
    const { port } = new URL(sandbox.origin);
    // A raw client that sends its request, then stops reading.
    const stalled = connect(Number(port), '127.0.0.1');
    stalled.on('error', () => undefined);
    stalled.write(`GET /_sandbox/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    await new Promise((resolve) => stalled.once('data', resolve));
    stalled.pause();
    // Each write of about 200 KB is logged whole, and so streamed whole: 100 of them are 20 MB.
    const body = JSON.stringify({ ...(JSON.parse(receiptBody(1)) as object), model: 'M'.repeat(200_000) });
    for (let sent = 0; sent < 100; sent += 1) {
      const answer = await fetch(`${sandbox.origin}/rest/v1/receipts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      expect(answer.status).toBe(422);
    }
    // Reading again, the client gets what was sent before the cut, then the end of the stream.
    let received = 0;
    stalled.on('data', (chunk: Buffer) => (received += chunk.length));
    const closed = new Promise<void>((resolve) => stalled.once('close', () => resolve()));
    stalled.resume();
    await closed;
    expect(received).toBeGreaterThan(1_000_000);
    expect(received).toBeLessThan(MAX_EVENT_STREAM_BACKLOG + 8 * 1024 * 1024); // the backlog, and the kernel's buffers
  }, 30_000);

  it(`answers 429 past ${MAX_EVENT_STREAMS} streams at once, and serves again once one closes`, async () => {
    const sandbox = await createSandbox({ host: '127.0.0.1', port: 0, data: undefined, rateLimit: 0 });
    opened.push(sandbox);
    await sandbox.start();
    const { token } = await sandbox.createAccount();
    const follow = () => fetch(`${sandbox.origin}/_sandbox/events`, { headers: { authorization: `Bearer ${token}` } });
    const streams = await Promise.all(Array.from({ length: MAX_EVENT_STREAMS }, follow));
    expect(streams.map((stream) => stream.status)).toEqual(streams.map(() => 200));
    const refused = await follow();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { message: string }).message).toContain(
      `already serves ${MAX_EVENT_STREAMS} event streams`,
    );
    await streams[0]!.body!.cancel();
    await expect
      .poll(async () => {
        const next = await follow();
        await next.body?.cancel();
        return next.status;
      })
      .toBe(200);
    await Promise.all(streams.slice(1).map((stream) => stream.body!.cancel()));
  });
});
