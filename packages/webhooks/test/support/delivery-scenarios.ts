import { WEBHOOK_EVENT_NAMES, WEBHOOK_USER_AGENT } from '@fflkit/types';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Build } from './builds';
import { EVENT_EXAMPLES } from './contract-examples';
import type { Receiver } from './servers';
import { SECRET, type SignedDelivery, signedDelivery } from './signed-delivery';

/** What the receiver's handlers saw. */
interface Seen {
  readonly name: string;
  readonly event: unknown;
  readonly deliveryId: string;
  readonly secretIndex: number;
}

/** Posts a delivery to the receiver as the service does, and reads the answer. */
export async function send(
  url: string,
  delivery: SignedDelivery,
): Promise<{ status: number; body: { message: string; outcome: string } }> {
  const response = await fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.body });
  return { status: response.status, body: (await response.json()) as { message: string; outcome: string } };
}

const RECEIPT_EVENTS = WEBHOOK_EVENT_NAMES.filter((name) => name !== 'ping');

/**
 * The end-to-end cases every adapter passes: a real server on port 0 receives deliveries signed
 * by the sandbox's signer and shaped as the contract's examples, with the contract's headers.
 * Handlers exist for the receipt events; `ping` is answered by the handler itself. The first
 * delivery of `receipt.updated` fails, to exercise the retry.
 */
export function describeDeliveries(
  build: Build,
  start: (handler: ReturnType<Build['createWebhookHandler']>) => Promise<Receiver>,
): void {
  let receiver: Receiver;
  let seen: Seen[];
  let failNext: boolean;

  beforeEach(async () => {
    seen = [];
    failNext = false;
    const record = (name: string) => (event: unknown, context: { deliveryId: string; secretIndex: number }) => {
      if (failNext) {
        failNext = false;
        throw new Error('the database is down');
      }
      seen.push({ name, event, ...context });
    };
    const handler = build.createWebhookHandler({
      secret: [SECRET, 'whsec_previous_secret_being_rotated_out'],
      on: Object.fromEntries(RECEIPT_EVENTS.map((name) => [name, record(name)])),
      onError: () => {},
    });
    receiver = await start(handler);
  });

  afterEach(async () => {
    await receiver.close();
  });

  it("receives deliveries with the contract's headers", () => {
    const { headers, deliveryId } = signedDelivery(EVENT_EXAMPLES.ping);
    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': WEBHOOK_USER_AGENT,
      'X-SVC-Event': 'ping',
      'X-SVC-Signature': expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
      'X-SVC-Delivery': expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
    });
    expect(deliveryId).toBe(headers['X-SVC-Delivery']);
  });

  it.each(RECEIPT_EVENTS)('verifies the %s example and routes it to its handler: 200', async (name) => {
    const delivery = signedDelivery(EVENT_EXAMPLES[name]);
    await expect(send(receiver.url, delivery)).resolves.toEqual({
      status: 200,
      body: { message: 'Delivery processed.', outcome: 'processed' },
    });
    expect(seen).toEqual([{ name, event: EVENT_EXAMPLES[name], deliveryId: delivery.deliveryId, secretIndex: 0 }]);
  });

  it('answers the ping example 200 without a ping handler', async () => {
    await expect(send(receiver.url, signedDelivery(EVENT_EXAMPLES.ping))).resolves.toEqual({
      status: 200,
      body: { message: 'Pong.', outcome: 'processed' },
    });
    expect(seen).toEqual([]);
  });

  it('deduplicates a retried delivery (same id, same body): 200 twice, handled once', async () => {
    const delivery = signedDelivery(EVENT_EXAMPLES['receipt.created']);
    await expect(send(receiver.url, delivery)).resolves.toMatchObject({ status: 200, body: { outcome: 'processed' } });
    await expect(send(receiver.url, delivery)).resolves.toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
    expect(seen).toHaveLength(1);
  });

  it("answers 500 when the handler throws, then processes the sender's retry of the delivery", async () => {
    const delivery = signedDelivery(EVENT_EXAMPLES['receipt.updated']);
    failNext = true;
    await expect(send(receiver.url, delivery)).resolves.toMatchObject({
      status: 500,
      body: { outcome: 'handler_failed' },
    });
    expect(seen).toEqual([]);
    await expect(send(receiver.url, delivery)).resolves.toMatchObject({ status: 200, body: { outcome: 'processed' } });
    await expect(send(receiver.url, delivery)).resolves.toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
    expect(seen).toHaveLength(1);
  });

  it('accepts a delivery signed with the secret being rotated out, and says which matched', async () => {
    const delivery = signedDelivery(EVENT_EXAMPLES['receipt.disposed'], {
      secret: 'whsec_previous_secret_being_rotated_out',
    });
    await expect(send(receiver.url, delivery)).resolves.toMatchObject({ status: 200 });
    expect(seen[0]).toMatchObject({ secretIndex: 1 });
  });

  it('answers 401 to a delivery signed with another secret, and to one without a signature', async () => {
    const forged = signedDelivery(EVENT_EXAMPLES['receipt.created'], { secret: 'whsec_attacker' });
    await expect(send(receiver.url, forged)).resolves.toMatchObject({
      status: 401,
      body: { outcome: 'signature_mismatch' },
    });
    const { 'X-SVC-Signature': _, ...unsigned } = forged.headers;
    await expect(send(receiver.url, { ...forged, headers: unsigned })).resolves.toMatchObject({
      status: 401,
      body: { outcome: 'missing_signature' },
    });
    expect(seen).toEqual([]);
  });

  it('answers 401 to a delivery whose body was changed after signing', async () => {
    const delivery = signedDelivery(EVENT_EXAMPLES['receipt.created']);
    const tampered = { ...delivery, body: delivery.body.replace('"purchase_amount":389.5', '"purchase_amount":1') };
    expect(tampered.body).not.toBe(delivery.body);
    await expect(send(receiver.url, tampered)).resolves.toMatchObject({
      status: 401,
      body: { outcome: 'signature_mismatch' },
    });
  });

  it('answers 400 to malformed deliveries: a signed body that is not JSON, a mismatched X-SVC-Event, no X-SVC-Delivery', async () => {
    const notJson = signedDelivery(EVENT_EXAMPLES['receipt.created'], { body: '{"event":"receipt.created",' });
    await expect(send(receiver.url, notJson)).resolves.toMatchObject({
      status: 400,
      body: { outcome: 'invalid_json' },
    });
    const delivery = signedDelivery(EVENT_EXAMPLES['receipt.created']);
    await expect(
      send(receiver.url, { ...delivery, headers: { ...delivery.headers, 'X-SVC-Event': 'receipt.deleted' } }),
    ).resolves.toMatchObject({
      status: 400,
      body: { outcome: 'event_mismatch' },
    });
    const { 'X-SVC-Delivery': _, ...withoutId } = delivery.headers;
    await expect(send(receiver.url, { ...delivery, headers: withoutId })).resolves.toMatchObject({
      status: 400,
      body: { outcome: 'missing_delivery_id' },
    });
    expect(seen).toEqual([]);
  });
}
