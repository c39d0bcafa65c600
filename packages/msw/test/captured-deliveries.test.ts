import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveryRequest } from '@fflkit/sandbox-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCapturingSender } from '../src/captured-deliveries';
import type { CapturedDelivery } from '../src/index';

// A real receiver: `/hang` never answers, `/redirect` answers 302, anything else 204.
let receiver: Server;
let origin: string;
beforeAll(async () => {
  receiver = createServer((request, response) => {
    if (request.url === '/hang') return;
    if (request.url === '/redirect') response.writeHead(302, { location: '/ok' }).end();
    else response.writeHead(204).end();
  });
  await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
  origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((closed) => receiver.close(closed));
});

const attempt = (url: string): DeliveryRequest => ({
  url,
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-SVC-Event': 'ping' },
  body: '{"event":"ping"}',
});

describe('createCapturingSender(captured, deliver, timeoutMs)', () => {
  it('captures without sending, and counts the attempt as a 200, unless told to deliver', async () => {
    const captured: CapturedDelivery[] = [];
    expect(await createCapturingSender(captured, false)(attempt(`${origin}/hang`))).toEqual({ status: 200 });
    expect(captured).toEqual([{ url: `${origin}/hang`, headers: attempt('').headers, body: '{"event":"ping"}' }]);
  });

  it('reports the status of the answer, a redirect included (never followed)', async () => {
    const send = createCapturingSender([], true);
    expect(await send(attempt(`${origin}/ok`))).toEqual({ status: 204 });
    expect(await send(attempt(`${origin}/redirect`))).toEqual({ status: 302 });
  });

  it('words a receiver that does not answer in time as the sandbox does', async () => {
    expect(await createCapturingSender([], true, 50)(attempt(`${origin}/hang`))).toEqual({
      error: 'No answer within 0.05 seconds.',
    });
  });

  it('words a refused connection as the sandbox does', async () => {
    const closed = createServer();
    await new Promise<void>((listening) => closed.listen(0, '127.0.0.1', listening));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    expect(await createCapturingSender([], true)(attempt(`http://127.0.0.1:${port}/in`))).toEqual({
      error: 'Connection refused.',
    });
  });
});
