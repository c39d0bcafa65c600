// The exports both builds share, re-exported whole by src/index.ts (Node) and src/web.ts (browsers
// and every other runtime). `createMockLogbook` is each build's own and lives in its entry file:
// on Node its `fixtures` may also be the path of a file.

// The mock and its options.
export type {
  MockLogbook,
  MockLogbookOptions,
  MockClock,
  MockClockState,
  MockFaults,
  MockWebhooks,
} from './mock-logbook';
export type { CapturedDelivery } from './captured-deliveries';
export type {
  SandboxFault,
  SandboxFaultCreate,
  SandboxFixtures,
  SandboxLoggedRequest,
  SandboxRequestFilter,
  SandboxRequestLogEntry,
  SandboxWebhookChaos,
  SandboxWebhookChaosPut,
  SandboxWebhookEndpointState,
} from '@fflkit/types';

// Handlers typed from the contract, to override the mock in one test.
export { createContractHttp } from './contract-http';
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
} from './contract-http';

// Errors.
export { MockLogbookError } from './errors';

// Limits the service enforces before the core sees a request.
export { MAX_BODY_BYTES, PAYLOAD_TOO_LARGE_MESSAGE } from '@fflkit/sandbox-core';
