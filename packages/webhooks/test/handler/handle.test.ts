import { describe, expect, it } from 'vitest';
import { BUILDS } from '../support/builds';
import { EVENT_EXAMPLES } from '../support/contract-examples';
import { recorder } from '../support/recorder';
import { SECRET, signedDelivery } from '../support/signed-delivery';

const CREATED = EVENT_EXAMPLES['receipt.created'];
const URL = 'https://receiver.example.com/webhooks';

/** A request whose body stream yields `chunks` and then, when `fail` is set, errors. */
function streamedRequest(chunks: string[], headers: Record<string, string>, fail = false): Request {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (fail) controller.error(new Error('client went away'));
      else controller.close();
    },
  });
  return new Request(URL, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
}

describe.each(BUILDS)(
  'createWebhookHandler(options).handle(request) on the $name',
  ({ api: { createWebhookHandler } }) => {
    function setup(options: Partial<Parameters<typeof createWebhookHandler>[0]> = {}) {
      const record = recorder();
      const webhooks = createWebhookHandler({
        secret: SECRET,
        on: { 'receipt.created': record.handler('receipt.created') },
        onError: record.onError,
        ...options,
      });
      return { record, handle: webhooks.handle };
    }

    it('answers a Fetch request with a Response: 200 processed, JSON', async () => {
      const { record, handle } = setup();
      const delivery = signedDelivery(CREATED);
      const response = await handle(
        new Request(URL, { method: 'POST', headers: delivery.headers, body: delivery.body }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      await expect(response.json()).resolves.toEqual({ message: 'Delivery processed.', outcome: 'processed' });
      expect(record.calls).toHaveLength(1);
    });

    it('works detached from the handler object, as a Next.js route export', async () => {
      const { handle } = setup();
      const POST = handle;
      const delivery = signedDelivery(CREATED);
      await expect(
        POST(new Request(URL, { method: 'POST', headers: delivery.headers, body: delivery.body })),
      ).resolves.toHaveProperty('status', 200);
    });

    it('reads a body that arrives in several chunks', async () => {
      const { record, handle } = setup();
      const delivery = signedDelivery(CREATED);
      const half = Math.floor(delivery.body.length / 2);
      const response = await handle(
        streamedRequest([delivery.body.slice(0, half), delivery.body.slice(half)], delivery.headers),
      );
      expect(response.status).toBe(200);
      expect(record.calls[0]?.event).toEqual(CREATED);
    });

    it('answers 401 to a body without a signature, and to an empty body', async () => {
      const { handle } = setup();
      const response = await handle(new Request(URL, { method: 'POST', body: '{}' }));
      expect(response.status).toBe(401);
      await expect(response.json()).resolves.toMatchObject({ outcome: 'missing_signature' });
      const delivery = signedDelivery(CREATED);
      await expect(handle(new Request(URL, { method: 'POST', headers: delivery.headers }))).resolves.toHaveProperty(
        'status',
        401,
      );
    });

    it.each(['GET', 'PUT', 'HEAD'])('answers 405 with Allow: POST to %s', async (method) => {
      const { handle } = setup();
      const response = await handle(new Request(URL, { method }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    });

    it('answers 413 without reading when Content-Length exceeds maxBodyBytes', async () => {
      const { record, handle } = setup({ maxBodyBytes: 100 });
      const delivery = signedDelivery(CREATED);
      const response = await handle(
        new Request(URL, {
          method: 'POST',
          headers: { ...delivery.headers, 'content-length': String(delivery.body.length) },
          body: delivery.body,
        }),
      );
      expect(response.status).toBe(413);
      await expect(response.json()).resolves.toEqual({
        message: 'The body is larger than 100 bytes (maxBodyBytes).',
        outcome: 'body_too_large',
      });
      expect(record.calls).toEqual([]);
    });

    it('answers 413 once a streamed body without Content-Length passes maxBodyBytes', async () => {
      const { handle } = setup({ maxBodyBytes: 100 });
      const delivery = signedDelivery(CREATED);
      const response = await handle(
        streamedRequest([delivery.body.slice(0, 90), delivery.body.slice(90)], delivery.headers),
      );
      expect(response.status).toBe(413);
    });

    it('answers 400 unreadable_body when the body stream fails', async () => {
      const { handle } = setup();
      const delivery = signedDelivery(CREATED);
      const response = await handle(streamedRequest([delivery.body.slice(0, 10)], delivery.headers, true));
      expect(response.status).toBe(400);
      await expect(response.json()).resolves.toEqual({
        message: 'The request body could not be read to its end.',
        outcome: 'unreadable_body',
      });
    });
  },
);
