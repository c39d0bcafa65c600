import {
  LogbookClient,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from '@fflkit/sdk';
import { receiptBody, receiptResource } from '@fflkit/test-fixtures';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../src/transport';
import { FakeClock } from './support/fake-clock';
import { empty, hang, json } from './support/stub-fetch';
import { BASE_URL, testClient } from './support/test-client';

const ok = () => json(200, { data: receiptResource() });
const failure = (status: number, headers: Record<string, string> = {}) =>
  json(status, { message: `status ${status}` }, headers);
const BACKOFFS = [500, 1000, 2000, 4000, 8000];
const backoffs = (delays: number[]) => delays.filter((delay) => delay !== 30_000);

describe('retries of idempotent calls (GET, PUT, DELETE)', () => {
  it.each([500, 502, 503, 504, 408])('GET is retried after %i and resolves with the next success', async (status) => {
    const { logbook, clock, calls } = testClient([failure(status), failure(status), ok()]);
    await expect(clock.settle(logbook.receipts.get(1042))).resolves.toMatchObject({ id: 1042 });
    expect(calls).toHaveLength(3);
    expect(backoffs(clock.delays)).toEqual([500, 1000]);
  });

  it('GET throws the last answer once maxRetries retries are spent', async () => {
    const { logbook, clock, calls } = testClient([failure(503)], { maxRetries: 4 });
    await expect(clock.settle(logbook.receipts.get(1042))).rejects.toBeInstanceOf(InternalServerError);
    expect(calls).toHaveLength(5);
    expect(backoffs(clock.delays)).toEqual(BACKOFFS.slice(0, 4));
  });

  it('maxRetries: 0 sends once', async () => {
    const { logbook, clock, calls } = testClient([failure(500)], { maxRetries: 0 });
    await expect(clock.settle(logbook.receipts.get(1042))).rejects.toBeInstanceOf(InternalServerError);
    expect(calls).toHaveLength(1);
  });

  it('PUT and DELETE are retried after a 5xx, with their bodies sent again', async () => {
    const put = testClient([failure(500), ok()]);
    await put.clock.settle(put.logbook.receipts.update(1042, { model: 'EX-9 OR' }));
    expect(put.calls.map((call) => [call.method, call.body])).toEqual([
      ['PUT', '{"model":"EX-9 OR"}'],
      ['PUT', '{"model":"EX-9 OR"}'],
    ]);
    const del = testClient([failure(502), empty(204)]);
    await del.clock.settle(del.logbook.receipts.delete(1042));
    expect(del.calls.map((call) => call.method)).toEqual(['DELETE', 'DELETE']);
  });

  it('GET is retried after a connection error and throws ConnectionError with the cause when they persist', async () => {
    const cause = new TypeError('fetch failed');
    const { logbook, clock, calls } = testClient([cause]);
    const error = await clock.settle(logbook.receipts.get(1042)).catch((error: unknown) => error);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause).toBe(cause);
    expect((error as Error).message).toContain('GET https://logbook.example.test/rest/v1/receipts/1042');
    expect((error as Error).message).toContain('on attempt 3');
    expect((error as Error).message).toContain('check baseUrl and the network');
    expect(calls).toHaveLength(3);
  });

  const refused = (address: string) =>
    Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
  it.each([
    ['a refused connection', refused('127.0.0.1:4010'), '(connect ECONNREFUSED 127.0.0.1:4010)'],
    [
      'every address of the host refused',
      Object.assign(new AggregateError([refused('::1:4010'), refused('127.0.0.1:4010')], ''), { code: 'ECONNREFUSED' }),
      '(connect ECONNREFUSED ::1:4010)',
    ],
    [
      'a host name that does not resolve',
      Object.assign(new Error('getaddrinfo ENOTFOUND logbook.example.test'), { code: 'ENOTFOUND' }),
      '(getaddrinfo ENOTFOUND logbook.example.test)',
    ],
  ])('names the cause of %s, with the host and port, and what to check', async (_case, cause, named) => {
    const { logbook, clock } = testClient([new TypeError('fetch failed', { cause })]);
    const error = await clock.settle(logbook.books.list()).catch((error: unknown) => error);
    expect((error as Error).message).toBe(
      `GET ${BASE_URL}/books: TypeError: fetch failed ${named} on attempt 3 (is the sandbox running? check baseUrl and the network)`,
    );
  });

  it("names ECONNREFUSED and the port of a real refused connection, as Node's fetch reports it", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const logbook = new LogbookClient({
      token: 'refused',
      baseUrl: `http://127.0.0.1:${port}/rest/v1`,
      maxRetries: 0,
      rateLimit: false,
    });
    await expect(logbook.books.list()).rejects.toThrow(
      `(connect ECONNREFUSED 127.0.0.1:${port}) on attempt 1 (is the sandbox running? check baseUrl and the network)`,
    );
  });

  it.each([400, 401, 403, 404, 409, 422])('GET is not retried after %i', async (status) => {
    const { logbook, clock, calls } = testClient([failure(status), ok()]);
    await expect(clock.settle(logbook.receipts.get(1042))).rejects.toMatchObject({ status });
    expect(calls).toHaveLength(1);
  });

  it('jitter takes up to a quarter off each backoff', async () => {
    const { logbook, clock } = testClient([failure(500), failure(500), ok()], { random: () => 0.5 });
    await clock.settle(logbook.receipts.get(1042));
    expect(backoffs(clock.delays)).toEqual([437.5, 875]);
  });
});

describe('retries of POST (recovery, in recovery.test.ts, off)', () => {
  it('POST is not retried after a 5xx: the service may have acted on it', async () => {
    const { logbook, clock, calls } = testClient([failure(500), ok()], { recover: false });
    const error = await clock.settle(logbook.receipts.create(receiptBody())).catch((error: unknown) => error);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toBe('500 status 500 (the service may have acted: look before sending it again)');
    expect(calls).toHaveLength(1);
  });

  it('POST is not retried after a connection error, and the message says it may have been recorded', async () => {
    const { logbook, clock, calls } = testClient([new TypeError('socket hang up'), ok()], { recover: false });
    const error = await clock.settle(logbook.receipts.create(receiptBody())).catch((error: unknown) => error);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe(
      `POST ${BASE_URL}/receipts: TypeError: socket hang up on attempt 1 (the service may have acted: look before sending it again; is the sandbox running? check baseUrl and the network)`,
    );
    expect(calls).toHaveLength(1);
  });

  it('a raw POST is not retried after a 5xx, with recovery on: only the methods know what to look for', async () => {
    const { logbook, clock, calls } = testClient([failure(502), ok()]);
    const { response } = await clock.settle(logbook.raw.POST('/receipts', { body: receiptBody() }));
    expect(response.status).toBe(502);
    expect(calls).toHaveLength(1);
  });

  it('POST is retried after a 429, with the same body, after Retry-After', async () => {
    const { logbook, clock, calls } = testClient([
      failure(429, { 'Retry-After': '3' }),
      json(201, { data: receiptResource() }),
    ]);
    const created = logbook.receipts.create(receiptBody());
    await clock.advance(2999);
    expect(calls).toHaveLength(1);
    await clock.advance(1);
    await expect(created).resolves.toMatchObject({ id: 1042 });
    expect(calls).toHaveLength(2);
    expect(calls[1]?.body).toBe(calls[0]?.body);
    expect(JSON.parse(calls[1]?.body ?? '')).toEqual(receiptBody());
  });

  it('dispose, a POST, is not retried after a 503', async () => {
    const { logbook, clock, calls } = testClient([failure(503), ok()], { recover: false });
    await expect(
      clock.settle(logbook.receipts.dispose(1042, { disposition_date: '2025-04-02', disposed_to: 'J' })),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(calls).toHaveLength(1);
  });
});

describe('Retry-After', () => {
  it('waits the seconds of Retry-After instead of the backoff', async () => {
    const { logbook, clock, calls } = testClient([failure(503, { 'Retry-After': '5' }), ok()], { rateLimit: false });
    const got = logbook.receipts.get(1042);
    await clock.advance(4999);
    expect(calls).toHaveLength(1);
    await clock.advance(1);
    await expect(got).resolves.toMatchObject({ id: 1042 });
  });

  it('waits until the HTTP date of Retry-After', async () => {
    const clock = new FakeClock();
    const date = new Date(clock.now() + 10_000).toUTCString();
    const { logbook, calls } = testClient([failure(429, { 'Retry-After': date }), ok()], { rateLimit: false, clock });
    const got = logbook.receipts.get(1042);
    await clock.advance(9999);
    expect(calls).toHaveLength(1);
    await clock.advance(1);
    await expect(got).resolves.toMatchObject({ id: 1042 });
  });

  it('throws at once when Retry-After is longer than maxRetryAfter', async () => {
    const { logbook, clock, calls } = testClient([failure(429, { 'Retry-After': '61' }), ok()]);
    const error = await clock.settle(logbook.receipts.get(1042)).catch((error: unknown) => error);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(61);
    expect(calls).toHaveLength(1);
    expect(clock.now()).toBe(Date.UTC(2025, 2, 14, 15, 4, 5));
  });

  it('honours a higher maxRetryAfter', async () => {
    const { logbook, clock, calls } = testClient([failure(429, { 'Retry-After': '120' }), ok()], {
      maxRetryAfter: 120,
    });
    await expect(clock.settle(logbook.receipts.get(1042))).resolves.toMatchObject({ id: 1042 });
    expect(calls).toHaveLength(2);
  });

  it('throws the 429 as RateLimitError when the retries are spent', async () => {
    const { logbook, clock, calls } = testClient([failure(429, { 'Retry-After': '1' })], { maxRetries: 1 });
    await expect(clock.settle(logbook.receipts.get(1042))).rejects.toBeInstanceOf(RateLimitError);
    expect(calls).toHaveLength(2);
  });

  it('hints to raise maxRetries, not maxRetryAfter, for a 429 whose Retry-After was within maxRetryAfter', async () => {
    const { logbook, clock } = testClient([failure(429, { 'Retry-After': '60' })], { maxRetries: 0 });
    const error = await clock.settle(logbook.books.list()).catch((error: unknown) => error);
    expect((error as Error).message).toBe(
      '429 status 429 (retry after error.retryAfter seconds, or raise maxRetries (0))',
    );
  });

  it('hints to raise maxRetryAfter for a 429 whose Retry-After was longer', async () => {
    const { logbook, clock } = testClient([failure(429, { 'Retry-After': '61' })]);
    const error = await clock.settle(logbook.books.list()).catch((error: unknown) => error);
    expect((error as Error).message).toBe(
      '429 status 429 (Retry-After is 61 s, past maxRetryAfter (60): retry later or raise maxRetryAfter)',
    );
  });
});

describe('time-outs', () => {
  it('throws TimeoutError when a POST gets no answer within timeout, without retrying it', async () => {
    const { logbook, clock, calls } = testClient([hang], { timeout: 5000, recover: false });
    const created = logbook.receipts.create(receiptBody());
    const outcome = expect(created).rejects.toBeInstanceOf(TimeoutError);
    await clock.advance(5000);
    await outcome;
    await expect(created).rejects.toThrow(
      `POST ${BASE_URL}/receipts: no answer in 5000 ms (the service may have acted: look before sending it again; raise timeout or check the network)`,
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]?.signal?.aborted).toBe(true);
  });

  it('retries a GET that timed out, each attempt with its own time-out', async () => {
    const { logbook, clock, calls } = testClient([hang, ok()]);
    const got = logbook.receipts.get(1042);
    await clock.advance(30_000);
    expect(calls).toHaveLength(1);
    await clock.advance(500);
    await expect(got).resolves.toMatchObject({ id: 1042 });
    expect(calls).toHaveLength(2);
    expect(clock.pending).toBe(0);
  });

  it('clears the timer once the answer came', async () => {
    const { logbook, clock } = testClient([ok()]);
    await logbook.receipts.get(1042);
    expect(clock.pending).toBe(0);
  });

  it('sets no timer with timeout: Infinity', async () => {
    const { logbook, clock } = testClient([ok()], { timeout: Infinity });
    await logbook.receipts.get(1042);
    expect(clock.delays).toEqual([]);
  });
});

describe('aborts', () => {
  it('rejects with the reason of a signal aborted during the request, without retrying', async () => {
    const { logbook, clock, calls } = testClient([hang]);
    const controller = new AbortController();
    const got = logbook.receipts.get(1042, { signal: controller.signal });
    await clock.advance(0);
    controller.abort(new Error('user left'));
    await expect(got).rejects.toThrow('user left');
    expect(calls).toHaveLength(1);
    expect(clock.pending).toBe(0);
  });

  it('rejects during the backoff wait, before the next attempt', async () => {
    const { logbook, clock, calls } = testClient([failure(503), ok()]);
    const controller = new AbortController();
    const got = logbook.receipts.get(1042, { signal: controller.signal });
    await clock.advance(100);
    controller.abort(new Error('stop'));
    await expect(got).rejects.toThrow('stop');
    await clock.advance(10_000);
    expect(calls).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const { logbook, calls } = testClient([ok()]);
    await expect(logbook.receipts.get(1042, { signal: AbortSignal.abort(new Error('too late')) })).rejects.toThrow(
      'too late',
    );
    expect(calls).toHaveLength(0);
  });
});

describe('the raw client', () => {
  it('shares the retries of the client and returns error answers instead of throwing', async () => {
    const { logbook, clock, calls } = testClient([failure(500), json(404, { message: 'Record not found.' })]);
    const { data, error, response } = await clock.settle(
      logbook.raw.GET('/receipts/{id}', { params: { path: { id: 7 } } }),
    );
    expect(calls).toHaveLength(2);
    expect(data).toBeUndefined();
    expect(error).toEqual({ message: 'Record not found.' });
    expect(response.status).toBe(404);
  });
});

describe('errors thrown by methods', () => {
  it.each([
    [404, NotFoundError],
    [422, ValidationError],
  ])('a %i from a method is thrown as %O', async (status, Class) => {
    const { logbook } = testClient([
      json(status, { message: 'no', errors: { book: ['The selected book is invalid.'] } }),
    ]);
    await expect(logbook.receipts.create(receiptBody())).rejects.toBeInstanceOf(Class);
  });
});

describe('backoffDelay(retry, random)', () => {
  it('doubles from 0.5 s and stops at 8 s', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((retry) => backoffDelay(retry, () => 0))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });

  it('takes off at most a quarter as jitter', () => {
    expect(backoffDelay(0, () => 0.5)).toBe(437.5);
    expect(backoffDelay(4, () => 0.999_999)).toBeGreaterThan(6000);
    expect(backoffDelay(4, () => 0.999_999)).toBeLessThan(8000);
  });
});
