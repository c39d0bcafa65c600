// Programmatic start for test suites.
export { startSandbox } from './start-sandbox';
export type { RunningSandbox, StartSandboxOptions } from './start-sandbox';

// Typed calls of a running sandbox's control API (/_sandbox), by its URL.
export { connectSandbox } from './control-client';
export type { ConnectSandboxOptions, SandboxControl } from './control-client';
export type { ActivityEvent, CreatedAccount, SandboxTokenCreated } from '@fflkit/sandbox-core/control';
export type {
  SandboxAccountCreate,
  SandboxDocumentCreate,
  SandboxE4473Put,
  SandboxFault,
  SandboxFaultCreate,
  SandboxFixtures,
  SandboxFixturesLoaded,
  SandboxHealth,
  SandboxLoggedRequest,
  SandboxReceiptBrowseQuery,
  SandboxReceiptExportQuery,
  SandboxReceiptPage,
  SandboxRequestFilter,
  SandboxRequestLogEntry,
  SandboxTokenCreate,
  SandboxWebhookChaos,
  SandboxWebhookChaosPut,
  SandboxWebhookEndpointState,
} from '@fflkit/types';

// The receiver check: what a webhook receiver must handle, judged from outside.
export { checkReceiver } from './receiver-check/check-receiver';
export { formatReceiverReport } from './receiver-check/receiver-report';
export type {
  CheckReceiverOptions,
  ReceiverCheckName,
  ReceiverCheckOutcome,
  ReceiverCheckReport,
  ReceiverCheckRequest,
  ReceiverCheckResult,
} from './receiver-check/check-receiver';

// Errors.
export { DataFileError } from './persistence/data-file';
export { FixturesError } from './fixtures-file';
export { SandboxControlError } from './control-client';
