// Programmatic start for test suites.
export { startSandbox } from './start-sandbox';
export type { RunningSandbox, StartSandboxOptions } from './start-sandbox';

// Errors.
export { DataFileError } from './persistence/data-file-error';
