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

// The drift guard: a proxy in front of the real service that checks its traffic against the
// contract, naming the choice each violation contradicts.
export { startDriftProxy } from './start-drift-proxy';
export type { DriftProxy, DriftState } from './drift-proxy/drift-proxy';
export type { RecordedFixtures } from './drift-proxy/fixtures-recorder';
export type { DriftProxyOptions } from './drift-proxy/proxy-options';
export type { DriftReport, ReportedViolation, Violation } from './contract-check/violations';
export type { ChoiceProbe, ContractChoice } from './contract-check/choices';

// The conformance probe: each choice of the contract confirmed or contradicted by a running service.
export { runConformance } from './conformance-probe';
export { formatConformanceReport } from './conformance/conformance-report';
export type { ConformanceOptions } from './conformance/run-conformance';
export type { ChoiceVerdict, ConformanceEvidence, ConformanceReport } from './conformance/verdicts';
export type { ConformanceFetch } from './conformance/probe-client';

// Errors.
export { DataFileError } from './persistence/data-file';
export { FixturesError } from './fixtures-file';
export { SandboxControlError } from './control-client';
export { DriftProxyError } from './drift-proxy/proxy-options';
export { ConformanceError } from './conformance/conformance-error';
