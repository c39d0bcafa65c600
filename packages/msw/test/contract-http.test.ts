import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createContractHttp, createMockLogbook } from '../src/index';

const BASE_URL = 'https://logbook.example.test/rest/v1';
const mock = createMockLogbook({ baseUrl: BASE_URL });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
afterAll(() => server.close());

it('mock.http.get(path, resolver) overrides one operation at the base URL, with the contract path parameters', async () => {
  const { token } = mock.createAccount();
  const seen: string[] = [];
  server.use(
    mock.http.get('/receipts/{id}', ({ params }) => {
      seen.push(params.id);
      return HttpResponse.json({ message: 'Service unavailable.' }, { status: 503 });
    }),
  );
  const headers = { authorization: `Bearer ${token}` };

  const overridden = await fetch(`${BASE_URL}/receipts/42`, { headers });
  expect(overridden.status).toBe(503);
  expect(await overridden.json()).toEqual({ message: 'Service unavailable.' });
  expect(seen).toEqual(['42']);

  // Other operations, and the same one once the override is reset, are the mock's again.
  expect((await fetch(`${BASE_URL}/books`, { headers })).status).toBe(200);
  server.resetHandlers();
  expect((await fetch(`${BASE_URL}/receipts/42`, { headers })).status).toBe(404);
});

it('mock.http.post(path, resolver) can answer with a network error', async () => {
  server.use(mock.http.post('/receipts', () => HttpResponse.error()));
  await expect(fetch(`${BASE_URL}/receipts`, { method: 'POST', body: '{}' })).rejects.toThrow(TypeError);
});

it('createContractHttp(baseUrl) throws a TypeError for a base URL its handlers would never match', () => {
  expect(() => createContractHttp('logbook.example.test/rest/v1')).toThrow(
    /^\[@fflkit\/msw\] createContractHttp\(\): baseUrl must be/,
  );
  expect(createContractHttp(`${BASE_URL}/`).get('/books', () => undefined).info.header).toBe(`GET ${BASE_URL}/books`);
});
