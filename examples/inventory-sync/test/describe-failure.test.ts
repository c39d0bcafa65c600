import {
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  type ApiErrorInit,
} from '@fflkit/sdk';
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../src/describe-failure';
import { SyncStateError } from '../src/sync-state-error';
import { UsageError } from '../src/usage-error';

const baseUrl = 'http://127.0.0.1:4010/rest/v1';

function answer(status: number, message: string): ApiErrorInit {
  return { status, headers: new Headers(), body: { message }, message: `${status} ${message}` };
}

describe('describeFailure(error, baseUrl)', () => {
  it.each([
    [
      new AuthenticationError(answer(401, 'Unauthenticated.')),
      'the service refused the token (401): check FFLKIT_TOKEN or --token',
    ],
    [
      new PermissionDeniedError(answer(403, 'This token lacks the read permission.')),
      '403: This token lacks the read permission.',
    ],
    [new NotFoundError(answer(404, 'Not Found')), `${baseUrl} answered 404: check --base-url`],
    [new RateLimitError({ ...answer(429, 'Too Many Attempts.'), retryAfter: 42 }), 'run again in 42 seconds'],
    [new TimeoutError('no answer in 30000 ms'), `${baseUrl} did not answer in time`],
    [new ConnectionError('ECONNREFUSED'), `cannot reach ${baseUrl}: is the service running?`],
    [new SyncStateError('state.json is not valid JSON'), 'state.json is not valid JSON'],
  ])('explains %o with what to do next, exit code 1', (error, message) => {
    const failure = describeFailure(error, baseUrl);

    expect(failure.message).toContain(message);
    expect(failure.exitCode).toBe(1);
  });

  it('passes a usage error on with exit code 2', () => {
    expect(describeFailure(new UsageError('--out needs a value'), baseUrl)).toEqual({
      message: '--out needs a value',
      exitCode: 2,
    });
  });

  it('passes any other error message on, with exit code 1', () => {
    expect(describeFailure(new Error("EACCES: permission denied, open 'book.csv'"), baseUrl)).toEqual({
      message: "EACCES: permission denied, open 'book.csv'",
      exitCode: 1,
    });
  });
});
