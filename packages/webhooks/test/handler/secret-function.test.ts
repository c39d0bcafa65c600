import { describe, expect, it } from 'vitest';
import { BUILDS } from '../support/builds';
import { EVENT_EXAMPLES } from '../support/contract-examples';
import { parsed, receiverSetup } from '../support/receiver-setup';
import { SECRET, signedDelivery } from '../support/signed-delivery';

const CREATED = EVENT_EXAMPLES['receipt.created'];
const GENERIC = 'The receiver failed to process the delivery; the sender will retry it.';

/** A promise settled by hand, for a secret that becomes known while deliveries wait for it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe.each(BUILDS)(
  'createWebhookHandler({ secret: () => ... }) on the $name',
  ({ api: { createWebhookHandler } }) => {
    const setup = (secret: () => unknown) => receiverSetup(createWebhookHandler, { secret: secret as () => string });

    it('does not call the function at setup, then calls it once, at the first delivery, and keeps its secret', async () => {
      let calls = 0;
      const { record, receive } = setup(() => {
        calls += 1;
        return SECRET;
      });
      expect(calls).toBe(0);
      await expect(receive(signedDelivery(CREATED))).resolves.toMatchObject({ status: 200, outcome: 'processed' });
      await expect(receive(signedDelivery(EVENT_EXAMPLES['receipt.updated']))).resolves.toMatchObject({
        status: 200,
        outcome: 'processed',
      });
      expect(calls).toBe(1);
      expect(record.calls).toHaveLength(2);
    });

    it('lets deliveries that come before the secret is known wait for the one call, then verifies them', async () => {
      let calls = 0;
      const known = deferred<string>();
      const { record, receive } = setup(() => {
        calls += 1;
        return known.promise;
      });
      const first = receive(signedDelivery(CREATED));
      const second = receive(signedDelivery(EVENT_EXAMPLES['receipt.updated']));
      await new Promise((resolve) => setImmediate(resolve));
      expect(record.calls).toEqual([]);
      known.resolve(SECRET);
      await expect(first).resolves.toMatchObject({ status: 200, outcome: 'processed' });
      await expect(second).resolves.toMatchObject({ status: 200, outcome: 'processed' });
      expect(calls).toBe(1);
    });

    it('verifies with a rotation the function gives, and still answers 401 to another secret', async () => {
      const { record, receive } = setup(async () => ['whsec_new', SECRET]);
      await receive(signedDelivery(CREATED));
      expect(record.calls[0]?.context).toMatchObject({ secretIndex: 1 });
      await expect(receive(signedDelivery(CREATED, { secret: 'whsec_attacker' }))).resolves.toMatchObject({
        status: 401,
        outcome: 'signature_mismatch',
      });
    });

    it.each([
      [
        'throws',
        () => {
          throw new Error('vault sealed');
        },
      ],
      ['rejects', () => Promise.reject(new Error('vault sealed'))],
    ])(
      'answers 500 setup_error when the function %s, reports it, and calls it again at the next delivery',
      async (_, failing) => {
        let calls = 0;
        const { record, receive } = setup(() => {
          calls += 1;
          return calls === 1 ? failing() : SECRET;
        });
        const delivery = signedDelivery(CREATED);
        const answer = await receive(delivery);
        expect(answer).toMatchObject({ status: 500, outcome: 'setup_error' });
        // The function's error may say more than a sender should read.
        expect(parsed(answer).message).toBe(GENERIC);
        expect(record.errors).toEqual([
          {
            error: new Error('vault sealed'),
            info: { outcome: 'setup_error', deliveryId: undefined, event: undefined },
          },
        ]);
        await expect(receive(delivery)).resolves.toMatchObject({ status: 200, outcome: 'processed' });
        expect(calls).toBe(2);
        expect(record.calls).toHaveLength(1);
      },
    );

    it.each([
      [
        'undefined',
        undefined,
        'must be the endpoint\'s signing secret (a non-empty string, "whsec_..."), or a non-empty array of them while rotating; got undefined',
      ],
      [
        'a secret without its whsec_ prefix',
        SECRET.slice('whsec_'.length),
        'must be the endpoint\'s signing secret exactly as the service showed it when the endpoint was created, "whsec_" prefix included; got a string that is not "whsec_" followed by the secret',
      ],
    ])('answers 500 setup_error, saying what to give, when the function gives %s', async (_, value, message) => {
      let calls = 0;
      const { record, receive } = setup(() => (++calls === 1 ? value : SECRET));
      const answer = await receive(signedDelivery(CREATED));
      expect(answer).toMatchObject({ status: 500, outcome: 'setup_error' });
      expect(parsed(answer).message).toBe(
        `[@fflkit/webhooks] createWebhookHandler: the value of the secret function ${message}`,
      );
      expect(record.errors.map(({ error, info }) => [(error as Error).name, info.outcome])).toEqual([
        ['TypeError', 'setup_error'],
      ]);
      await expect(receive(signedDelivery(CREATED))).resolves.toMatchObject({ status: 200, outcome: 'processed' });
    });

    it('answers every delivery waiting on a call that fails with 500, and makes one new call for the next', async () => {
      let calls = 0;
      const first = deferred<string>();
      const { receive } = setup(() => (++calls === 1 ? first.promise : SECRET));
      const [one, two] = [signedDelivery(CREATED), signedDelivery(EVENT_EXAMPLES['receipt.updated'])];
      const waiting = [receive(one), receive(two)];
      first.reject(new Error('vault sealed'));
      await expect(Promise.all(waiting)).resolves.toMatchObject([{ status: 500 }, { status: 500 }]);
      await expect(Promise.all([receive(one), receive(two)])).resolves.toMatchObject([
        { status: 200 },
        { status: 200 },
      ]);
      expect(calls).toBe(2);
    });
  },
);
