import { describe, expect, it } from 'vitest';
import { dataOf, errorsOf, withAccount } from '../harness/harness';

const endpoint = { url: 'https://hooks.example.com/logbook', events: ['*'] };

describe('POST /rest/v1/webhooks', () => {
  it('answers 201 with the enabled endpoint and its whsec_ secret, shown only here', async () => {
    const { api } = await withAccount();
    const response = await api('POST', '/webhooks', {
      body: { ...endpoint, events: [' receipt.created ', 'receipt.disposed'] },
    });
    expect(response.status).toBe(201);
    const body = response.body as { data: unknown; secret: string };
    expect(body.data).toEqual({
      id: 1,
      url: 'https://hooks.example.com/logbook',
      events: ['receipt.created', 'receipt.disposed'],
      enabled: true,
      created_at: '2025-03-14T15:04:05Z',
      updated_at: '2025-03-14T15:04:05Z',
    });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9]{40}$/);
    expect(JSON.stringify((await api('GET', '/webhooks')).body)).not.toContain(body.secret);
  });

  it('needs an absolute http(s) URL of at most 255 characters', async () => {
    const { api } = await withAccount();
    for (const url of [
      'ftp://hooks.example.com',
      '/relative',
      'not a url',
      'https://',
      'http:/hooks.example.com',
      'https:hooks.example.com',
      'https://user:secret@hooks.example.com/x',
      `https://example.com/${'x'.repeat(240)}`,
      5,
    ]) {
      const response = await api('POST', '/webhooks', { body: { ...endpoint, url } });
      expect(response.status).toBe(422);
      expect(Object.keys(errorsOf(response))).toEqual(['url']);
    }
    expect((await api('POST', '/webhooks', { body: { ...endpoint, url: 'HTTP://127.0.0.1:9000/hook' } })).status).toBe(
      201,
    );
  });

  it('needs a non-empty list of distinct event names, or * alone', async () => {
    const { api } = await withAccount();
    const errors = async (events: unknown) =>
      errorsOf(await api('POST', '/webhooks', { body: { ...endpoint, events } }));
    expect(await errors([])).toEqual({ events: ['The events field must have at least 1 items.'] });
    expect(await errors('*')).toEqual({ events: ['The events field must be an array.'] });
    expect(await errors(['receipt.sold'])).toEqual({ 'events.0': ['The selected events.0 is invalid.'] });
    expect(await errors(['ping', 'ping'])).toEqual({ 'events.1': ['The events.1 field has a duplicate value.'] });
    expect(await errors(['*', 'ping'])).toEqual({
      events: ['The events field must hold * alone or event names only.'],
    });
    expect(await errors(undefined)).toEqual({ events: ['The events field is required.'] });
  });
});

describe('GET and DELETE /rest/v1/webhooks', () => {
  it('lists endpoints by id without secrets and deletes one with 204, then 404', async () => {
    const { api } = await withAccount();
    await api('POST', '/webhooks', { body: endpoint });
    await api('POST', '/webhooks', { body: { ...endpoint, events: ['ping'] } });
    expect(dataOf<{ id: number }[]>(await api('GET', '/webhooks')).map((webhook) => webhook.id)).toEqual([1, 2]);
    expect((await api('DELETE', '/webhooks/1')).status).toBe(204);
    expect((await api('DELETE', '/webhooks/1')).status).toBe(404);
    expect(dataOf<{ id: number }[]>(await api('GET', '/webhooks')).map((webhook) => webhook.id)).toEqual([2]);
  });
});

describe('GET /_sandbox/webhooks and the redelivery of an unknown id', () => {
  it('lists the endpoints with their consecutive failures, and names what a delivery id is', async () => {
    const { api, control } = await withAccount();
    await api('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/a', events: ['*'] } });
    await control('POST', '/webhooks/1/ping');
    const [state] = dataOf<Record<string, unknown>[]>(await control('GET', '/webhooks'));
    expect(state).toMatchObject({ id: 1, url: 'http://127.0.0.1:9/a', enabled: true, consecutive_failures: 1 });
    const unknown = await control('POST', '/deliveries/nope/redeliver');
    expect(unknown.status).toBe(404);
    expect((unknown.body as { message: string }).message).toBe(
      "The account has no delivery nope: a delivery's id is the UUID that GET /_sandbox/deliveries lists, and X-SVC-Delivery carries.",
    );
  });
});

describe("the dashboard's endpoint actions and a delivery's signed request, as control calls", () => {
  it('add and delete endpoints and read one receipt without the rate limit or the request log', async () => {
    const { api, control } = await withAccount({}, { rateLimit: 1 });
    await api('GET', '/books');
    const created = await control('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/a', events: ['*'] } });
    expect(created.status).toBe(201);
    expect((created.body as { secret: string }).secret).toMatch(/^whsec_/);
    expect((await control('POST', '/webhooks', { body: { url: 'ftp://x', events: [] } })).status).toBe(422);
    expect((await control('DELETE', '/webhooks/1')).status).toBe(204);
    expect((await control('DELETE', '/webhooks/1')).status).toBe(404);
    expect((await control('GET', '/receipts/1')).status).toBe(404);
    expect(dataOf<unknown[]>(await control('GET', '/requests'))).toHaveLength(1);
  });

  it('GET /_sandbox/deliveries/{id} shows the signed request, and the list filters by endpoint and state', async () => {
    const { api, control } = await withAccount();
    await control('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/a', events: ['*'] } });
    await control('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/b', events: ['*'] } });
    await control('POST', '/webhooks/2/ping');
    const [ping] = dataOf<{ id: string; webhook_id: number }[]>(
      await control('GET', '/deliveries', { query: 'webhook_id=2' }),
    );
    expect(ping?.webhook_id).toBe(2);
    expect(dataOf<unknown[]>(await control('GET', '/deliveries', { query: 'webhook_id=1' }))).toEqual([]);
    expect(dataOf<unknown[]>(await control('GET', '/deliveries', { query: 'state=pending' }))).toHaveLength(1);
    expect(errorsOf(await control('GET', '/deliveries', { query: 'state=lost&webhook_id=x' }))).toEqual({
      webhook_id: ['The webhook id field must be an integer.'],
      state: ['The selected state is invalid.'],
    });
    const one = dataOf<{ request: { url: string; headers: Record<string, string>; body: string } }>(
      await control('GET', `/deliveries/${ping?.id}`),
    );
    expect(one.request.url).toBe('http://127.0.0.1:9/b');
    expect(one.request.headers['X-SVC-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(JSON.parse(one.request.body)).toMatchObject({ event: 'ping' });
    await api('DELETE', '/webhooks/2');
    expect(dataOf<{ request: unknown }>(await control('GET', `/deliveries/${ping?.id}`)).request).toBeNull();
  });
});
