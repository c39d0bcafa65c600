import {
  ApiError,
  AuthenticationError,
  LogbookError,
  ConnectionError,
  createApiError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  QueueTimeoutError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from '@fflkit/sdk';
import { describe, expect, it, vi } from 'vitest';
import { parseRetryAfter } from '../src/errors';
import { json } from './support/stub-fetch';

const NOW = Date.UTC(2025, 2, 14, 15, 4, 5);

async function errorOf(response: Response) {
  const text = await response.clone().text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // A body that is not JSON reaches the factory as text, as openapi-fetch hands it over.
  }
  return createApiError(response, body, NOW);
}

describe('createApiError(response, body)', () => {
  it.each([
    [401, AuthenticationError, 'AuthenticationError', 'Unauthenticated.', 'check the token'],
    [
      403,
      PermissionDeniedError,
      'PermissionDeniedError',
      'This action requires the write permission.',
      'permission this method needs',
    ],
    [404, NotFoundError, 'NotFoundError', 'Record not found.', 'check the id'],
    [500, InternalServerError, 'InternalServerError', 'Server Error', 'retry later'],
    [503, InternalServerError, 'InternalServerError', 'Service Unavailable', 'retry later'],
    [400, ApiError, 'ApiError', 'Bad request.', 'see error.body'],
    [413, ApiError, 'ApiError', 'Payload too large.', 'see error.body'],
  ])(
    'builds %i as %O named %s, with the body message and what to do next',
    async (status, Class, name, message, advice) => {
      const error = await errorOf(json(status, { message }, { 'X-RateLimit-Remaining': '41' }));
      expect(error).toBeInstanceOf(Class);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toBeInstanceOf(LogbookError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(name);
      expect(error.status).toBe(status);
      expect(error.body).toEqual({ message });
      expect(error.headers.get('x-ratelimit-remaining')).toBe('41');
      expect(error.message).toContain(`${status} ${message}`);
      expect(error.message).toContain(advice);
    },
  );

  it('builds 422 as a ValidationError whose errors map each field to its messages', async () => {
    const body = {
      message: 'The serial number field is required. (and 1 more error)',
      errors: {
        serial_number: ['The serial number field is required.'],
        'disposition.date': ['The date is not a valid date.'],
      },
    };
    const error = await errorOf(json(422, body));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.name).toBe('ValidationError');
    expect((error as ValidationError).errors).toEqual(body.errors);
    expect(error.body).toEqual(body);
    expect(error.message).toContain('serial_number: The serial number field is required.');
    expect(error.message).toContain('disposition.date: The date is not a valid date.');
  });

  it('builds a 422 without details as a ValidationError with empty errors', async () => {
    const error = (await errorOf(json(422, { message: 'Invalid.' }))) as ValidationError;
    expect(error.errors).toEqual({});
    expect(error.body).toEqual({ message: 'Invalid.' });
  });

  it('builds 429 as a RateLimitError with retryAfter in seconds', async () => {
    const error = await errorOf(json(429, { message: 'Too Many Attempts.' }, { 'Retry-After': '42' }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(42);
    expect(error.message).toBe('429 Too Many Attempts. (retry after error.retryAfter seconds)');
  });

  it('reads a Retry-After given as an HTTP date, counted from now', async () => {
    const date = new Date(NOW + 30_000).toUTCString();
    const error = (await errorOf(
      json(429, { message: 'Too Many Attempts.' }, { 'Retry-After': date }),
    )) as RateLimitError;
    expect(error.retryAfter).toBe(30);
  });

  it('leaves retryAfter undefined when a 429 has no Retry-After', async () => {
    const error = (await errorOf(json(429, { message: 'Too Many Attempts.' }))) as RateLimitError;
    expect(error.retryAfter).toBeUndefined();
  });

  it('keeps the start of a body that is not JSON in the message, with body undefined', async () => {
    const error = await errorOf(new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.body).toBeUndefined();
    expect(error.message).toContain('502 <html>Bad Gateway</html>');
  });

  it('falls back on the status text when there is no body', async () => {
    const error = createApiError(new Response(null, { status: 404, statusText: 'Not Found' }), undefined, NOW);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.body).toBeUndefined();
    expect(error.message).toMatch(/^404 Not Found/);
  });
});

describe('ConnectionError and TimeoutError', () => {
  it('are LogbookErrors, TimeoutError a kind of ConnectionError, both with a name and a cause', () => {
    const cause = new TypeError('fetch failed');
    const timeout = new TimeoutError('no answer', { cause });
    expect(timeout).toBeInstanceOf(ConnectionError);
    expect(timeout).toBeInstanceOf(LogbookError);
    expect(timeout).not.toBeInstanceOf(ApiError);
    expect(timeout.name).toBe('TimeoutError');
    expect(new ConnectionError('down').name).toBe('ConnectionError');
    expect(timeout.cause).toBe(cause);
  });
});

describe('parseRetryAfter(value, now)', () => {
  it.each([
    ['42', 42],
    ['0', 0],
    ['1.5', 1.5],
    [' 7 ', 7],
  ])('reads delay-seconds %j as %d', (value, seconds) => {
    expect(parseRetryAfter(value, NOW)).toBe(seconds);
  });

  it('reads an HTTP date as the seconds from now', () => {
    expect(parseRetryAfter('Fri, 14 Mar 2025 15:05:00 GMT', NOW)).toBe(55);
  });

  it('reads an HTTP date in the past as 0', () => {
    expect(parseRetryAfter('Fri, 14 Mar 2025 15:00:00 GMT', NOW)).toBe(0);
  });

  it.each([[null], [''], ['soon'], ['-5']])('returns undefined for %j', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});

describe('instanceof across copies of the SDK', () => {
  it('recognises the errors of another copy of the module (as the CommonJS build beside the ESM one), class by class', async () => {
    vi.resetModules();
    const other = await import('../src/errors');
    expect(other.ValidationError).not.toBe(ValidationError);
    const error = other.createApiError(
      json(422, { message: 'Invalid.', errors: {} }),
      { message: 'Invalid.', errors: {} },
      NOW,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(LogbookError);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect(new other.TimeoutError('no answer')).toBeInstanceOf(ConnectionError);
    expect(new other.ConnectionError('down')).not.toBeInstanceOf(TimeoutError);
    expect(
      new ValidationError({ status: 422, headers: new Headers(), body: undefined, message: '422' }),
    ).toBeInstanceOf(other.ValidationError);
  });

  it('keeps the ordinary check for subclasses of the integrator and for values that are not errors', () => {
    class OwnError extends ApiError {}
    const own = new OwnError({ status: 418, headers: new Headers(), body: undefined, message: '418' });
    expect(own).toBeInstanceOf(OwnError);
    expect(own).toBeInstanceOf(ApiError);
    expect(new ApiError({ status: 418, headers: new Headers(), body: undefined, message: '418' })).not.toBeInstanceOf(
      OwnError,
    );
    expect(own.name).toBe('ApiError');
    for (const value of [null, undefined, 'ValidationError', 422, {}, new Error('x'), Object.create(null)])
      expect(value instanceof LogbookError).toBe(false);
  });

  it('names each error on its prototype, so that the stack starts with the name', () => {
    const error = new TimeoutError('no answer');
    expect(Object.keys(error)).toEqual([]);
    expect(error.stack?.split('\n')[0]).toBe('TimeoutError: no answer');
    expect(new QueueTimeoutError('held').name).toBe('QueueTimeoutError');
  });
});
