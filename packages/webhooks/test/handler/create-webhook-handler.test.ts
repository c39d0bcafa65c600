import { describe, expect, it, vi } from 'vitest';
import { BUILDS } from '../support/builds';
import { EVENT_EXAMPLES } from '../support/contract-examples';
import { SECRET, type SignedDelivery, signedDelivery } from '../support/signed-delivery';

const NO_PREFIX =
  'secret must be the endpoint\'s signing secret exactly as the service showed it when the endpoint was created, "whsec_" prefix included; got';

describe.each(BUILDS)('createWebhookHandler(options) on the $name', ({ api: { createWebhookHandler } }) => {
  it('returns handle, receive and the body limit (1 MiB by default)', () => {
    const webhooks = createWebhookHandler({ secret: SECRET, on: {} });
    expect(webhooks).toEqual({
      handle: expect.any(Function),
      receive: expect.any(Function),
      maxBodyBytes: 1024 * 1024,
    });
    expect(createWebhookHandler({ secret: SECRET, on: {}, maxBodyBytes: 4096 }).maxBodyBytes).toBe(4096);
  });

  it('reads options given as undefined as not given: the memory store, no tolerance, 1 MiB, console.error', async () => {
    const calls: string[] = [];
    const webhooks = createWebhookHandler({
      secret: SECRET,
      on: {
        'receipt.created': () => void calls.push('receipt.created'),
        'receipt.updated': undefined,
        'receipt.deleted': () => {
          throw new Error('inventory down');
        },
      },
      onUnknownEvent: undefined,
      store: undefined,
      toleranceSeconds: undefined,
      now: undefined,
      maxBodyBytes: undefined,
      onError: undefined,
    });
    const receive = (delivery: SignedDelivery) =>
      webhooks.receive({ payload: delivery.body, headers: delivery.headers });
    expect(webhooks.maxBodyBytes).toBe(1024 * 1024);
    // The contract's example was sent long ago: only a tolerance would refuse it.
    const created = signedDelivery(EVENT_EXAMPLES['receipt.created']);
    await expect(receive(created)).resolves.toMatchObject({ status: 200, outcome: 'processed' });
    await expect(receive(created)).resolves.toMatchObject({ status: 200, outcome: 'duplicate' });
    await expect(receive(signedDelivery(EVENT_EXAMPLES['receipt.updated']))).resolves.toMatchObject({
      status: 200,
      outcome: 'ignored',
    });
    const restored = { ...EVENT_EXAMPLES['receipt.created'], event: 'receipt.restored' };
    await expect(receive(signedDelivery(restored))).resolves.toMatchObject({ status: 200, outcome: 'ignored' });
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await expect(receive(signedDelivery(EVENT_EXAMPLES['receipt.deleted']))).resolves.toMatchObject({
        status: 500,
        outcome: 'handler_failed',
      });
      expect(consoleError).toHaveBeenCalledTimes(1);
      expect(consoleError.mock.calls[0]?.[0]).toMatch(/^\[@fflkit\/webhooks\] handler_failed: delivery /);
    } finally {
      consoleError.mockRestore();
    }
    expect(calls).toEqual(['receipt.created']);
  });

  it.each([
    [
      'options that are missing',
      undefined,
      'options must be an object ({ secret, on, onUnknownEvent, store, deduplicateBy, toleranceSeconds, now, maxBodyBytes, onError }); got undefined',
    ],
    [
      'a misspelt option',
      { secret: SECRET, on: {}, handlers: {} },
      'unknown option "handlers"; the options are secret, on, onUnknownEvent, store, deduplicateBy, toleranceSeconds, now, maxBodyBytes, onError',
    ],
    [
      'no secret',
      { on: {} },
      'secret must be the endpoint\'s signing secret (a non-empty string, "whsec_..."), or a non-empty array of them while rotating, or a function giving them once they are known; got undefined',
    ],
    [
      'a secret without its whsec_ prefix',
      { secret: SECRET.slice('whsec_'.length), on: {} },
      `${NO_PREFIX} a string that is not "whsec_" followed by the secret`,
    ],
    [
      'the whsec_ prefix alone',
      { secret: 'whsec_', on: {} },
      `${NO_PREFIX} a string that is not "whsec_" followed by the secret`,
    ],
    [
      'a rotation with a secret without the prefix',
      { secret: [SECRET, 'f00d'], on: {} },
      `${NO_PREFIX} an array holding a string that is not "whsec_" followed by the secret`,
    ],
    [
      'no handlers',
      { secret: SECRET },
      "on must be an object of handlers by event name ({ 'receipt.created': (event, context) => ... }); got undefined",
    ],
    [
      'handlers in an array',
      { secret: SECRET, on: [] },
      "on must be an object of handlers by event name ({ 'receipt.created': (event, context) => ... }); got an empty array",
    ],
    [
      'a misspelt event name',
      { secret: SECRET, on: { 'receipt.create': () => {} } },
      'on names an unknown event "receipt.create"; the events are receipt.created, receipt.updated, receipt.disposed, receipt.deleted, ping (use onUnknownEvent for newer ones)',
    ],
    [
      'a handler that is not a function',
      { secret: SECRET, on: { ping: 'pong' } },
      "on['ping'] must be a function; got a string",
    ],
    [
      'an onUnknownEvent that is not a function',
      { secret: SECRET, on: {}, onUnknownEvent: true },
      'onUnknownEvent must be a function; got a boolean',
    ],
    [
      'an onError that is not a function',
      { secret: SECRET, on: {}, onError: null },
      'onError must be a function; got null',
    ],
    [
      'a store without release',
      { secret: SECRET, on: {}, store: { claim() {}, commit() {} } },
      'store must be a DeliveryStore (claim, commit and release) or false; got an object without them all',
    ],
    [
      'a store of true',
      { secret: SECRET, on: {}, store: true },
      'store must be a DeliveryStore (claim, commit and release) or false; got a boolean without them all',
    ],
    [
      'a deduplicateBy of another kind',
      { secret: SECRET, on: {}, deduplicateBy: 'X-SVC-Delivery' },
      "deduplicateBy must be 'body' (the default) or 'delivery-id'; got a string",
    ],
    [
      'a fractional body limit',
      { secret: SECRET, on: {}, maxBodyBytes: 10.5 },
      'maxBodyBytes must be a positive whole number; got a number',
    ],
    [
      'a tolerance of zero',
      { secret: SECRET, on: {}, toleranceSeconds: 0 },
      'toleranceSeconds must be a positive number; got a number',
    ],
    [
      'a clock that is not a function',
      { secret: SECRET, on: {}, now: 1 },
      'now must be a function returning epoch milliseconds, like Date.now; got a number',
    ],
  ])('throws a TypeError at setup for %s', (_, options, message) => {
    // @ts-expect-error: wrong options
    expect(() => createWebhookHandler(options)).toThrow(
      new TypeError(`[@fflkit/webhooks] createWebhookHandler: ${message}`),
    );
  });
});
