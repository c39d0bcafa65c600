import {
  ApiError,
  type LogbookError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  type TimeoutError,
  ValidationError,
} from '@fflkit/sdk';
import type { ErrorBody, ValidationErrorBody } from '@fflkit/types';
import { describe, expectTypeOf, it } from 'vitest';

declare const error: unknown;

describe('narrowing errors', () => {
  it('instanceof narrows the status and the body', () => {
    if (error instanceof NotFoundError) {
      expectTypeOf(error.status).toEqualTypeOf<404>();
      expectTypeOf(error.body).toEqualTypeOf<ErrorBody | undefined>();
      // @ts-expect-error: a NotFoundError is never a 422
      const status: 422 = error.status;
      void status;
      // @ts-expect-error: only a ValidationError has field errors
      void error.errors;
    }
    if (error instanceof ValidationError) {
      expectTypeOf(error.status).toEqualTypeOf<422>();
      expectTypeOf(error.body).toEqualTypeOf<ValidationErrorBody | undefined>();
      expectTypeOf(error.errors).toEqualTypeOf<Readonly<Record<string, string[]>>>();
    }
    if (error instanceof RateLimitError) {
      expectTypeOf(error.retryAfter).toEqualTypeOf<number | undefined>();
    }
    if (error instanceof InternalServerError) {
      expectTypeOf(error.status).toEqualTypeOf<number>();
    }
  });

  it('an ApiError has no retryAfter, a connection error no status', () => {
    if (error instanceof ApiError) {
      expectTypeOf(error.status).toEqualTypeOf<number>();
      expectTypeOf(error.headers).toEqualTypeOf<Headers>();
      // @ts-expect-error: only a RateLimitError says when to retry
      void error.retryAfter;
    }
    if (error instanceof ConnectionError) {
      // @ts-expect-error: no answer came, so there is no status
      void error.status;
    }
  });

  it('every class is a LogbookError and an Error', () => {
    expectTypeOf<TimeoutError>().toExtend<ConnectionError>();
    expectTypeOf<ConnectionError>().toExtend<LogbookError>();
    expectTypeOf<NotFoundError>().toExtend<ApiError>();
    expectTypeOf<ApiError>().toExtend<Error>();
  });
});
