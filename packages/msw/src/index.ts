// The mock and its options.
export { createMockBoundBook } from './create-mock-boundbook';
export type {
  CapturedDelivery,
  MockBoundBook,
  MockBoundBookOptions,
  MockClock,
  MockClockState,
} from './mock-boundbook-types';

// Handlers typed from the contract, to override the mock in one test.
export { createContractHttp } from './create-contract-http';
export type {
  ContractHandlerFactory,
  ContractHttp,
  ContractJsonBody,
  ContractMethod,
  ContractOperation,
  ContractPath,
  ContractPathParams,
  ContractRequestBody,
  ContractResolver,
  ContractResponseBody,
} from './contract-http-types';

// Errors.
export { MockBoundBookError } from './mock-boundbook-error';

// Limits the service enforces before the core sees a request.
export { MAX_BODY_BYTES, PAYLOAD_TOO_LARGE_MESSAGE } from '@boundbook/sandbox-core';
