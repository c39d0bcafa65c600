import { afterEach, describe, expect, it } from 'vitest';
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
      if (event !== undefined && data !== undefined) found.push({ event, data: JSON.parse(data) as Record<string, unknown> });
    }
  }
  await reader.cancel();
  return found;
}

describe('GET /_sandbox/events', () => {
  it('streams the account\'s requests and deliveries as server-sent events, and 401 without a token', async () => {
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
    await fetch(`${sandbox.origin}/rest/v1/receipts`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: receiptBody(1) });
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
