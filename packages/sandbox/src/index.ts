// Programmatic start for test suites.
export { startSandbox } from './start-sandbox';
export type { RunningSandbox, StartSandboxOptions } from './start-sandbox';

// Typed calls of a running sandbox's control API (/_sandbox), by its URL.
export { connectSandbox } from './control-client';
export type {
  AccountCreate,
  ConnectSandboxOptions,
  DocumentCreate,
  E4473Put,
  SandboxAccountCreated,
  SandboxControl,
  SandboxTokenCreated,
  TokenCreate,
} from './control-client';

// Errors.
export { DataFileError } from './persistence/data-file';
export { SandboxControlError } from './control-client';
