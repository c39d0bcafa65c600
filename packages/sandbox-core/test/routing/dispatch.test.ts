import { describe, expect, it } from 'vitest';
import { errorsOf, receiptBody, withAccount } from '../harness/harness';

describe('the order of checks', () => {
  it('answers 401 before 429, 403, 404 and 422', async () => {
    const { call } = await withAccount({ account_type: 'collector' });
    const response = await call('PUT', '/rest/v1/receipts/999', { token: 'sbx_unknown', rawBody: '{' });
    expect(response.status).toBe(401);
  });

  it('answers 429 before 403', async () => {
    const { api, control } = await withAccount({}, { rateLimit: 1 });
    const none = (await control('POST', '/tokens', { body: { permissions: [] } })).body as { token: string };
    expect((await api('GET', '/books', { token: none.token })).status).toBe(403);
    expect((await api('GET', '/books', { token: none.token })).status).toBe(429);
  });

  it('answers 403 before 404', async () => {
    const { api, control } = await withAccount();
    const read = (await control('POST', '/tokens', { body: { permissions: ['read'] } })).body as { token: string };
    expect((await api('DELETE', '/receipts/999', { token: read.token })).status).toBe(403);
  });

  it('answers 404 before 422', async () => {
    const { api } = await withAccount();
    expect((await api('PUT', '/receipts/999', { rawBody: '{' })).status).toBe(404);
    expect((await api('POST', '/receipts/999/dispose', { body: {} })).status).toBe(404);
  });

  it('answers 404 for a route that does not exist before any other check, without rate-limit headers', async () => {
    const { call, api } = await withAccount({}, { rateLimit: 60 });
    expect(await call('PATCH', '/rest/v1/receipts/1')).toEqual({
      status: 404,
      headers: {},
      body: { message: 'The route PATCH /rest/v1/receipts/1 could not be found.' },
    });
    expect((await api('GET', '/receipts/abc')).headers).toEqual({});
  });

  it("acts on a fault rule once the request is counted, before the account type's 403", async () => {
    const { api, control } = await withAccount({ account_type: 'collector' }, { rateLimit: 2 });
    await control('POST', '/faults', { body: { operation: 'listBooks', action: 'status', status: 503, times: 1 } });
    expect(await api('GET', '/books')).toMatchObject({ status: 503, headers: { 'X-RateLimit-Remaining': '1' } });
    expect(await api('GET', '/books')).toMatchObject({
      status: 403,
      headers: { 'X-RateLimit-Remaining': '0' },
      body: { message: 'Accounts of type collector cannot use the API.' },
    });
    expect((await api('GET', '/books')).status).toBe(429);
  });

  it("answers the account type's 403 before the permission's", async () => {
    const { api, control } = await withAccount({ account_type: 'collector' });
    const none = (await control('POST', '/tokens', { body: { permissions: [] } })).body as { token: string };
    expect(await api('GET', '/books', { token: none.token })).toMatchObject({
      status: 403,
      body: { message: 'Accounts of type collector cannot use the API.' },
    });
  });

  it('answers 422 once the record exists', async () => {
    const { api } = await withAccount();
    await api('POST', '/receipts', { body: receiptBody() });
    const response = await api('PUT', '/receipts/1', { rawBody: '{' });
    expect(response.status).toBe(422);
    expect(errorsOf(response)).toEqual({ body: ['The request body is not valid JSON.'] });
  });
});

describe('errors', () => {
  it('answer 404 for a record in the contract shape with the rate-limit headers', async () => {
    const { api } = await withAccount();
    expect(await api('GET', '/receipts/12')).toEqual({
      status: 404,
      headers: { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59' },
      body: { message: 'Record not found.' },
    });
  });
});

describe('authentication', () => {
  it('answers 401 with WWW-Authenticate for a missing, malformed, unknown or revoked token', async () => {
    const { call, control, token } = await withAccount();
    const expected = { status: 401, headers: { 'WWW-Authenticate': 'Bearer' }, body: { message: 'Unauthenticated.' } };
    expect(await call('GET', '/rest/v1/books')).toEqual(expected);
    expect(await call('GET', '/rest/v1/books', { headers: { authorization: `Basic ${token}` } })).toEqual(expected);
    expect(await call('GET', '/rest/v1/books', { headers: { authorization: 'Bearer' } })).toEqual(expected);
    expect(await call('GET', '/rest/v1/books', { token: `${token}x` })).toEqual(expected);
    const other = (await control('POST', '/tokens', { body: { permissions: ['read'] } })).body as {
      data: { id: number };
      token: string;
    };
    expect((await call('GET', '/rest/v1/books', { token: other.token })).status).toBe(200);
    expect((await control('DELETE', `/tokens/${other.data.id}`)).status).toBe(204);
    expect(await call('GET', '/rest/v1/books', { token: other.token })).toEqual(expected);
    expect(await call('GET', '/_sandbox/clock', { token: other.token })).toEqual(expected);
  });

  it('accepts the scheme in any case and surrounding blanks', async () => {
    const { call, token } = await withAccount();
    const response = await call('GET', '/rest/v1/books', { headers: { authorization: `bearer   ${token} ` } });
    expect(response.status).toBe(200);
  });
});

describe('permissions', () => {
  const cases = [
    ['GET', '/receipts', 'read'],
    ['POST', '/receipts', 'write'],
    ['PUT', '/receipts/1', 'write'],
    ['POST', '/receipts/1/dispose', 'write'],
    ['DELETE', '/receipts/1', 'delete'],
    ['GET', '/webhooks', 'read'],
    ['POST', '/webhooks', 'write'],
    ['DELETE', '/webhooks/1', 'delete'],
  ] as const;

  it.each(cases)('%s %s needs the %s permission', async (method, path, permission) => {
    const { api, control } = await withAccount();
    await api('POST', '/receipts', { body: receiptBody() });
    const others = ['read', 'write', 'delete'].filter((name) => name !== permission);
    const token = ((await control('POST', '/tokens', { body: { permissions: others } })).body as { token: string })
      .token;
    const response = await api(method, path, { token, body: {} });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: `This token lacks the ${permission} permission.` });
    expect(response.headers['X-RateLimit-Remaining']).toBe('59');
  });

  it('lets a token with no permission make control calls', async () => {
    const { api, control } = await withAccount();
    const token = ((await control('POST', '/tokens', { body: { permissions: [] } })).body as { token: string }).token;
    expect((await api('GET', '/books', { token })).status).toBe(403);
    expect((await control('GET', '/clock', { token })).status).toBe(200);
  });
});

describe('account eligibility', () => {
  it('answers 403 naming the type on every service call of a collector, whatever the token holds', async () => {
    const { api, control } = await withAccount({ account_type: 'collector' });
    for (const [method, path] of [
      ['GET', '/books'],
      ['POST', '/receipts'],
      ['DELETE', '/receipts/1'],
      ['GET', '/search'],
    ]) {
      const response = await api(method ?? 'GET', path ?? '/');
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: 'Accounts of type collector cannot use the API.' });
    }
    expect((await control('GET', '/clock')).status).toBe(200);
  });

  it.each(['dealer', 'manufacturer', 'importer'])('lets a %s account use the API', async (type) => {
    const { api } = await withAccount({ account_type: type });
    expect((await api('GET', '/books')).status).toBe(200);
  });
});

describe('HEAD', () => {
  it('answers a GET route like GET without a body: status, headers and the same checks', async () => {
    const { api, call } = await withAccount({}, { rateLimit: 60 });
    await api('POST', '/receipts', { body: receiptBody() });
    const get = await api('GET', '/receipts/1');
    const head = await api('HEAD', '/receipts/1');
    expect(head).toEqual({ status: 200, headers: { ...get.headers, 'X-RateLimit-Remaining': '57' } });
    expect(await api('HEAD', '/receipts/99')).toMatchObject({ status: 404 });
    expect((await api('HEAD', '/receipts/99')).body).toBeUndefined();
    expect((await call('HEAD', '/rest/v1/books')).status).toBe(401);
    expect((await api('HEAD', '/webhooks/1')).status).toBe(404);
  });

  it('strips the body of every answer, whichever step made it: a cached list, a refusal, a fault rule, a control call', async () => {
    const { api, call, control } = await withAccount({}, { rateLimit: 60 });
    for (const answer of [
      await api('HEAD', '/receipts'),
      await api('HEAD', '/receipts'),
      await call('HEAD', '/rest/v1/books'),
      await control('HEAD', '/clock'),
    ]) {
      expect(answer.body).toBeUndefined();
    }
    await control('POST', '/faults', { body: { operation: 'listBooks', action: 'status', status: 503, times: 1 } });
    const faulted = await api('HEAD', '/books');
    expect(faulted).toMatchObject({ status: 503, headers: { 'X-Sandbox-Fault': '1' } });
    expect(faulted.body).toBeUndefined();
  });
});

describe('bodies that are not JSON', () => {
  it('answer 415 naming the type sent, after 401, 429 and 403, and change nothing', async () => {
    const { api, call, core, token } = await withAccount({}, { rateLimit: 60 });
    const text = { 'content-type': 'text/plain;charset=UTF-8' };
    const refused = await call('POST', '/_sandbox/accounts', { rawBody: '{}', headers: text });
    expect(refused).toMatchObject({
      status: 415,
      body: {
        message:
          'The request body must be JSON, sent with Content-Type: application/json; this request sent text/plain.',
      },
    });
    expect(core.snapshot().accounts).toHaveLength(1);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await call('POST', '/rest/v1/receipts', { body: receiptBody(), headers: form })).status).toBe(401);
    expect((await api('POST', '/receipts', { body: receiptBody(), headers: form })).status).toBe(415);
    expect(
      (await call('POST', '/_sandbox/tokens', { token, body: { permissions: ['read'] }, headers: text })).status,
    ).toBe(415);
    expect(core.snapshot().receipts).toEqual([]);
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/vnd.api+json',
    ]) {
      expect((await api('POST', '/receipts', { body: receiptBody(), headers: { 'content-type': type } })).status).toBe(
        201,
      );
    }
    expect((await api('POST', '/receipts', { body: receiptBody() })).status).toBe(201);
  });
});
