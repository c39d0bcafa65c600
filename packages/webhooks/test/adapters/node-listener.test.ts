import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createWebhookHandler, toNodeListener } from '../../src/index';
import * as nodeBuild from '../../src/index';
import { EVENT_EXAMPLES } from '../support/contract-examples';
import { describeDeliveries, send } from '../support/delivery-scenarios';
import { recorder } from '../support/recorder';
import { startNodeReceiver } from '../support/servers';
import { SECRET, signedDelivery } from '../support/signed-delivery';

/** Sends raw bytes with the given headers over a fresh connection, and reads the answer. */
function rawPost(
  url: string,
  headers: Record<string, string>,
  chunks: string[],
): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body }),
      );
    });
    request.on('error', reject);
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

describe('toNodeListener(webhooks) on a node:http server', () => {
  describeDeliveries(nodeBuild, startNodeReceiver);

  it('answers 405 with Allow: POST to a GET', async () => {
    const receiver = await startNodeReceiver(createWebhookHandler({ secret: SECRET, on: {} }));
    try {
      const response = await fetch(receiver.url);
      expect([response.status, response.headers.get('allow')]).toEqual([405, 'POST']);
    } finally {
      await receiver.close();
    }
  });

  it('answers 413 and closes the connection for a declared body past maxBodyBytes, and for a chunked one', async () => {
    const receiver = await startNodeReceiver(createWebhookHandler({ secret: SECRET, on: {}, maxBodyBytes: 100 }));
    try {
      const declared = await rawPost(receiver.url, { 'content-length': '200' }, ['x'.repeat(200)]);
      expect(declared).toMatchObject({ status: 413, connection: 'close' });
      const chunked = await rawPost(receiver.url, { 'transfer-encoding': 'chunked' }, ['x'.repeat(60), 'x'.repeat(60)]);
      expect(chunked).toMatchObject({ status: 413, connection: 'close' });
      expect(JSON.parse(chunked.body)).toEqual({
        message: 'The body is larger than 100 bytes (maxBodyBytes).',
        outcome: 'body_too_large',
      });
    } finally {
      await receiver.close();
    }
  });

  it('reads a body in text chunks when the request stream has an encoding set', async () => {
    const record = recorder();
    const listener = toNodeListener(
      createWebhookHandler({ secret: SECRET, on: { 'receipt.created': record.handler('created') } }),
    );
    const server = createServer((request, response) => {
      request.setEncoding('utf8');
      void listener(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      await expect(send(url, signedDelivery(EVENT_EXAMPLES['receipt.created']))).resolves.toMatchObject({
        status: 200,
        body: { outcome: 'processed' },
      });
      expect(record.calls).toHaveLength(1);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('uses a raw body a framework already read (req.body as Buffer or string)', async () => {
    const record = recorder();
    const listener = toNodeListener(
      createWebhookHandler({ secret: SECRET, on: { 'receipt.created': record.handler('created') } }),
    );
    const server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks);
      Object.assign(request, { body: request.headers['x-as'] === 'text' ? raw.toString('utf8') : raw });
      await listener(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const asBuffer = signedDelivery(EVENT_EXAMPLES['receipt.created']);
      await expect(send(url, asBuffer)).resolves.toMatchObject({ status: 200 });
      // Another event: the same body again would be a duplicate.
      const asText = signedDelivery({ ...EVENT_EXAMPLES['receipt.created'], timestamp: '2025-03-14T15:04:05.001Z' });
      await expect(send(url, { ...asText, headers: { ...asText.headers, 'x-as': 'text' } })).resolves.toMatchObject({
        status: 200,
      });
      expect(record.calls).toHaveLength(2);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('answers 413 to a raw body a framework already read (Buffer or string) past maxBodyBytes', async () => {
    const record = recorder();
    const listener = toNodeListener(
      createWebhookHandler({ secret: SECRET, on: { 'receipt.created': record.handler('created') }, maxBodyBytes: 100 }),
    );
    const server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks);
      Object.assign(request, { body: request.headers['x-as'] === 'text' ? raw.toString('utf8') : raw });
      await listener(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const delivery = signedDelivery(EVENT_EXAMPLES['receipt.created']);
      await expect(send(url, delivery)).resolves.toMatchObject({ status: 413, body: { outcome: 'body_too_large' } });
      await expect(send(url, { ...delivery, headers: { ...delivery.headers, 'x-as': 'text' } })).resolves.toMatchObject(
        { status: 413, body: { outcome: 'body_too_large' } },
      );
      expect(record.calls).toEqual([]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('answers 500 saying to pass the raw body when a framework parsed it first (a Next.js pages API route)', async () => {
    const record = recorder();
    const listener = toNodeListener(createWebhookHandler({ secret: SECRET, on: {}, onError: record.onError }));
    const server = createServer(async (request, response) => {
      let text = '';
      for await (const chunk of request) text += String(chunk);
      Object.assign(request, { body: JSON.parse(text) });
      await listener(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const answer = await send(url, signedDelivery(EVENT_EXAMPLES['receipt.created']));
      expect(answer.status).toBe(500);
      expect(answer.body.outcome).toBe('setup_error');
      expect(answer.body.message).toContain('receive: payload is a parsed object; pass the raw request body instead');
      expect(record.errors[0]?.error).toBeInstanceOf(TypeError);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('answers 400 unreadable_body when the request stream fails', async () => {
    const listener = toNodeListener(createWebhookHandler({ secret: SECRET, on: {} }));
    const written: { status?: number; body?: string } = {};
    const request = {
      method: 'POST',
      headers: {},
      readableEnded: false,
      on(event: string, listen: (error?: Error) => void) {
        if (event === 'error') queueMicrotask(() => listen(new Error('aborted')));
      },
      removeListener() {},
      resume() {},
    };
    const response = {
      statusCode: 0,
      setHeader() {},
      end(chunk: string) {
        written.status = response.statusCode;
        written.body = chunk;
      },
    };
    await listener(request, response);
    expect(written.status).toBe(400);
    expect(JSON.parse(written.body as string)).toMatchObject({ outcome: 'unreadable_body' });
  });
});
