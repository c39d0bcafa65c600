import { afterEach, describe, expect, it } from 'vitest';
import { createNodeDeliverySender } from '../../src/deliveries/node-delivery-sender';
import { closeAll, openReceiver } from './sandbox-world';

afterEach(closeAll);

const request = (url: string) => ({
  method: 'POST' as const,
  url,
  headers: { 'Content-Type': 'application/json', 'X-SVC-Event': 'ping' },
  body: '{"event":"ping","data":{"message":"é"}}',
});

describe('createNodeDeliverySender(options)', () => {
  it('gives receivers 5 seconds by default, as the service', () => {
    const sender = createNodeDeliverySender();
    expect(sender.timeoutMs).toBe(5000);
    sender.close();
  });

  it('POSTs the body as it is with its headers and a Content-Length, and resolves with any status', async () => {
    const receiver = await openReceiver(() => ({ status: 418 }));
    const sender = createNodeDeliverySender();
    expect(await sender.send(request(`${receiver.url}/hook?x=1`))).toEqual({ status: 418 });
    expect(receiver.received[0]).toMatchObject({
      method: 'POST',
      path: '/hook?x=1',
      body: '{"event":"ping","data":{"message":"é"}}',
      headers: { 'content-type': 'application/json', 'x-svc-event': 'ping', 'content-length': '40' },
    });
    sender.close();
  });

  it('sends to an https URL over TLS, with an agent made at the first such delivery', async () => {
    const receiver = await openReceiver(() => ({ status: 204 }));
    const sender = createNodeDeliverySender();
    // The receiver speaks plain HTTP: the TLS handshake fails, and the delivery resolves with why.
    const outcome = await sender.send(request(receiver.url.replace(/^http:/, 'https:')));
    expect(outcome).toEqual({ error: expect.any(String) });
    expect(receiver.received).toEqual([]);
    sender.close();
  });

  it('resolves with a reason for an invalid URL, an unsupported scheme and an unknown host', async () => {
    const sender = createNodeDeliverySender({ timeoutMs: 2000 });
    expect(await sender.send(request('not a url'))).toEqual({ error: 'The endpoint URL is not a valid URL.' });
    expect(await sender.send(request('ftp://127.0.0.1/x'))).toEqual({
      error: "The endpoint URL's scheme ftp: is neither http: nor https:.",
    });
    expect(await sender.send(request('http://unknown.invalid/x'))).toMatchObject({ error: expect.any(String) });
    sender.close();
  });

  it('close() aborts the requests in flight: they resolve with an error', async () => {
    const receiver = await openReceiver(() => 'hang');
    const sender = createNodeDeliverySender();
    const pending = sender.send(request(`${receiver.url}/hook`));
    await receiver.got(1);
    sender.close();
    expect(await pending).toMatchObject({ error: expect.any(String) });
  });

  it('throws a TypeError naming the package for a time-out that is not a positive number', () => {
    expect(() => createNodeDeliverySender({ timeoutMs: 0 })).toThrow(/^\[@fflkit\/sandbox\] the webhook time-out/);
    expect(() => createNodeDeliverySender({ timeoutMs: Number.NaN })).toThrow(TypeError);
  });
});
