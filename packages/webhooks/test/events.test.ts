import { WEBHOOK_EVENT_NAMES } from '@fflkit/types';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { WebhookEvent, WebhookVerificationReason } from '../src/index';
import { BUILDS } from './support/builds';
import { EVENT_EXAMPLES } from './support/contract-examples';
import { SECRET, signedDelivery } from './support/signed-delivery';

const CREATED = EVENT_EXAMPLES['receipt.created'];
const CREATED_AT = Date.parse(CREATED.timestamp);

describe.each(BUILDS)(
  'constructEvent(payload, headers, options) on the $name',
  ({ api: { constructEvent, WebhookVerificationError } }) => {
    /** The reason and message `constructEvent` rejects with. */
    async function refusal(
      payload: string,
      headers: Record<string, string>,
      options: Parameters<typeof constructEvent>[2] = { secret: SECRET },
    ) {
      const error = await constructEvent(payload, headers, options).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      const { name, reason, message } = error as InstanceType<typeof WebhookVerificationError>;
      expect(name).toBe('WebhookVerificationError');
      expect(message.startsWith('[@fflkit/webhooks] ')).toBe(true);
      return { reason, message };
    }

    it.each(WEBHOOK_EVENT_NAMES)('returns the parsed %s event of the contract example', async (name) => {
      const { body, headers } = signedDelivery(EVENT_EXAMPLES[name]);
      await expect(constructEvent(body, headers, { secret: SECRET })).resolves.toEqual(EVENT_EXAMPLES[name]);
    });

    it('returns an event narrowed on its name', async () => {
      const { body, headers } = signedDelivery(EVENT_EXAMPLES['receipt.disposed']);
      const event = await constructEvent(body, headers, { secret: SECRET });
      expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
      if (event.event !== 'receipt.disposed') throw new Error('expected receipt.disposed');
      expect(event.data.disposition.disposed_to).toBe('John Q. Example');
    });

    it('reads headers from a Headers object, a record in any case, and a record of arrays', async () => {
      const { body, headers } = signedDelivery(CREATED);
      const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
      const upper = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
      const arrays = Object.fromEntries(Object.entries(lower).map(([name, value]) => [name, [value]]));
      for (const given of [new Headers(headers), headers, lower, upper, arrays]) {
        await expect(constructEvent(body, given, { secret: SECRET })).resolves.toEqual(CREATED);
      }
    });

    it('accepts the body as bytes', async () => {
      const { body, headers } = signedDelivery(CREATED);
      await expect(constructEvent(Buffer.from(body), headers, { secret: SECRET })).resolves.toEqual(CREATED);
      await expect(constructEvent(new TextEncoder().encode(body).buffer, headers, { secret: SECRET })).resolves.toEqual(
        CREATED,
      );
    });

    it('accepts a signature made with any secret of a rotation', async () => {
      const { body, headers } = signedDelivery(CREATED, { secret: 'whsec_old' });
      await expect(constructEvent(body, headers, { secret: [SECRET, 'whsec_old'] })).resolves.toEqual(CREATED);
    });

    it('accepts a delivery without X-SVC-Event, whose signed body names the event', async () => {
      const { body, headers } = signedDelivery(CREATED);
      const { 'X-SVC-Event': _, ...rest } = headers;
      await expect(constructEvent(body, rest, { secret: SECRET })).resolves.toEqual(CREATED);
    });

    it('rejects with missing_signature when X-SVC-Signature is absent', async () => {
      const { body, headers } = signedDelivery(CREATED);
      const { 'X-SVC-Signature': _, ...rest } = headers;
      const { reason, message } = await refusal(body, rest);
      expect(reason).toBe<WebhookVerificationReason>('missing_signature');
      expect(message).toContain('has no X-SVC-Signature header');
    });

    it('rejects with malformed_signature for a header of another shape', async () => {
      const { body, headers } = signedDelivery(CREATED);
      const { reason, message } = await refusal(body, { ...headers, 'X-SVC-Signature': 'sha1=abc' });
      expect(reason).toBe('malformed_signature');
      expect(message).toContain('not "sha256=" followed by 64 lowercase hex digits');
    });

    it('rejects with malformed_signature for a repeated signature header', async () => {
      const { body, headers } = signedDelivery(CREATED);
      const signature = headers['X-SVC-Signature'] as string;
      const { reason } = await refusal(body, {
        ...headers,
        'X-SVC-Signature': [signature, signature] as unknown as string,
      });
      expect(reason).toBe('malformed_signature');
    });

    it('rejects with signature_mismatch, saying to pass the raw body, for a re-serialised body', async () => {
      const { body, headers } = signedDelivery(CREATED);
      const { reason, message } = await refusal(JSON.stringify(JSON.parse(body), null, 2), headers);
      expect(reason).toBe('signature_mismatch');
      expect(message).toBe(
        "[@fflkit/webhooks] the signature does not match the body: pass the raw request body (the exact bytes received, not a parsed and re-serialised object) and the endpoint's signing secret.",
      );
    });

    it('rejects with a TypeError naming the whsec_ prefix for a secret without it, before verifying', async () => {
      const { body, headers } = signedDelivery(CREATED, { secret: SECRET.slice('whsec_'.length) });
      const prefix =
        '[@fflkit/webhooks] constructEvent: secret must be the endpoint\'s signing secret exactly as the service showed it when the endpoint was created, "whsec_" prefix included; got';
      await expect(constructEvent(body, headers, { secret: SECRET.slice('whsec_'.length) })).rejects.toThrow(
        new TypeError(`${prefix} a string that is not "whsec_" followed by the secret`),
      );
      await expect(constructEvent(body, headers, { secret: [SECRET, 'whsec_'] })).rejects.toThrow(
        new TypeError(`${prefix} an array holding a string that is not "whsec_" followed by the secret`),
      );
    });

    it('rejects with invalid_json for a signed body that is not JSON', async () => {
      const { body, headers } = signedDelivery(CREATED, { body: '{"event":' });
      const { reason, message } = await refusal(body, headers);
      expect(reason).toBe('invalid_json');
      expect(message).toContain('not valid UTF-8 JSON');
    });

    it('rejects with invalid_json for signed bytes that are not UTF-8', async () => {
      const bytes = new Uint8Array([0x7b, 0xff, 0x7d]);
      const headers = { 'X-SVC-Signature': await BUILDS[0]!.api.signPayload(SECRET, bytes) };
      const error = await constructEvent(bytes, headers, { secret: SECRET }).catch((caught: unknown) => caught);
      expect(error).toHaveProperty('reason', 'invalid_json');
    });

    it.each([
      ['an array', '[]'],
      ['null', 'null'],
      ['an object without event', '{"timestamp":"2025-03-14T15:04:05Z","data":{}}'],
      ['an event that is not a string', '{"event":1,"timestamp":"2025-03-14T15:04:05Z","data":{}}'],
      ['a timestamp that is not a string', '{"event":"ping","timestamp":1,"data":{}}'],
      ['data that is not an object', '{"event":"ping","timestamp":"2025-03-14T15:04:05Z","data":[]}'],
    ])('rejects with invalid_json for signed JSON that is %s', async (_, body) => {
      const delivery = signedDelivery(CREATED, { body });
      const { reason, message } = await refusal(delivery.body, delivery.headers);
      expect(reason).toBe('invalid_json');
      expect(message).toContain('expected an object with a string "event", a string "timestamp" and an object "data"');
    });

    it('rejects with event_mismatch when X-SVC-Event disagrees with the body', async () => {
      const { body, headers } = signedDelivery(CREATED);
      const { reason, message } = await refusal(body, { ...headers, 'X-SVC-Event': 'receipt.deleted' });
      expect(reason).toBe('event_mismatch');
      expect(message).toBe(
        '[@fflkit/webhooks] the X-SVC-Event header says "receipt.deleted" but the signed body says "receipt.created": pass the headers of the same request as the body.',
      );
    });

    it('rejects with unknown_event, saying to acknowledge it, for an event this version does not know', async () => {
      const { body, headers } = signedDelivery({
        event: 'receipt.restored',
        timestamp: CREATED.timestamp,
        data: CREATED.data,
      });
      const { reason, message } = await refusal(body, headers);
      expect(reason).toBe('unknown_event');
      expect(message).toContain('"receipt.restored" is not one this version of @fflkit/webhooks knows');
      expect(message).toContain('Acknowledge it with a 2xx');
    });

    it('checks the signature before parsing: an unsigned non-JSON body is signature_mismatch', async () => {
      const { headers } = signedDelivery(CREATED);
      const { reason } = await refusal('not json', headers);
      expect(reason).toBe('signature_mismatch');
    });

    it('accepts an event within toleranceSeconds of now, before and after', async () => {
      const { body, headers } = signedDelivery(CREATED);
      for (const offset of [-300_000, 0, 300_000]) {
        await expect(
          constructEvent(body, headers, { secret: SECRET, toleranceSeconds: 300, now: () => CREATED_AT + offset }),
        ).resolves.toEqual(CREATED);
      }
    });

    it('rejects with timestamp_out_of_tolerance past toleranceSeconds either way, naming the retry schedule', async () => {
      const { body, headers } = signedDelivery(CREATED);
      for (const offset of [-301_000, 301_000]) {
        const { reason, message } = await refusal(body, headers, {
          secret: SECRET,
          toleranceSeconds: 300,
          now: () => CREATED_AT + offset,
        });
        expect(reason).toBe('timestamp_out_of_tolerance');
        expect(message).toContain('is 301 s from now, more than toleranceSeconds (300)');
        expect(message).toContain('retries come up to 99360 s later');
      }
    });

    it('rejects with timestamp_out_of_tolerance for a timestamp that is not a date-time, when a tolerance is given', async () => {
      const event = { ...CREATED, timestamp: 'yesterday' };
      const { body, headers } = signedDelivery(event);
      await expect(constructEvent(body, headers, { secret: SECRET })).resolves.toEqual(event);
      const { reason, message } = await refusal(body, headers, { secret: SECRET, toleranceSeconds: 300 });
      expect(reason).toBe('timestamp_out_of_tolerance');
      expect(message).toContain('"yesterday" is not a date-time');
    });

    it('reads toleranceSeconds and now given as undefined as not given: no tolerance check', async () => {
      const event = { ...CREATED, timestamp: 'yesterday' };
      const { body, headers } = signedDelivery(event);
      await expect(
        constructEvent(body, headers, { secret: SECRET, toleranceSeconds: undefined, now: undefined }),
      ).resolves.toEqual(event);
    });

    it('checks the tolerance against Date.now when no clock is given', async () => {
      const { body, headers } = signedDelivery(CREATED);
      const { reason } = await refusal(body, headers, { secret: SECRET, toleranceSeconds: 60 });
      expect(reason).toBe('timestamp_out_of_tolerance');
    });

    it.each([
      [
        'options that are missing',
        undefined,
        'constructEvent: options must be an object ({ secret, toleranceSeconds, now }); got undefined',
      ],
      [
        'a misspelt option',
        { secret: SECRET, tolerance: 300 },
        'constructEvent: unknown option "tolerance"; the options are secret, toleranceSeconds, now',
      ],
      ['no secret', {}, "constructEvent: secret must be the endpoint's signing secret"],
      [
        'a negative tolerance',
        { secret: SECRET, toleranceSeconds: -1 },
        'constructEvent: toleranceSeconds must be a positive number; got a number',
      ],
      [
        'an infinite tolerance',
        { secret: SECRET, toleranceSeconds: Infinity },
        'constructEvent: toleranceSeconds must be a positive number',
      ],
      [
        'a clock that is not a function',
        { secret: SECRET, now: 5 },
        'constructEvent: now must be a function returning epoch milliseconds, like Date.now; got a number',
      ],
    ])('rejects with a TypeError for %s', async (_, options, message) => {
      const { body, headers } = signedDelivery(CREATED);
      // @ts-expect-error: wrong options
      await expect(constructEvent(body, headers, options)).rejects.toThrow(
        new TypeError(`[@fflkit/webhooks] ${message}`).message,
      );
    });

    it('rejects with a TypeError for headers that are not an object', async () => {
      const { body, headers } = signedDelivery(CREATED);
      // @ts-expect-error: a header value in place of the headers
      await expect(constructEvent(body, headers['X-SVC-Signature'], { secret: SECRET })).rejects.toThrow(
        "[@fflkit/webhooks] constructEvent: headers must be the request's headers (a Headers object or a record such as req.headers); got a string",
      );
    });

    it('rejects with a TypeError saying to pass the raw body for a parsed object', async () => {
      const { body, headers } = signedDelivery(CREATED);
      await expect(constructEvent(JSON.parse(body), headers, { secret: SECRET })).rejects.toThrow(
        'constructEvent: payload is a parsed object; pass the raw request body',
      );
    });
  },
);
