// The mock and its options.
export { createMockBoundBook } from './create-mock-boundbook';
export type {
  CapturedDelivery,
  MockBoundBook,
  MockBoundBookOptions,
  MockClock,
  MockClockState,
} from './mock-boundbook-types';

// Errors.
export { MockBoundBookError } from './mock-boundbook-error';

// Limits the service enforces before the core sees a request.
export { MAX_BODY_BYTES, PAYLOAD_TOO_LARGE_MESSAGE } from '@boundbook/sandbox-core';
