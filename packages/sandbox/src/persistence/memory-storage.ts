import type { SandboxSnapshot, SnapshotError } from '@fflkit/sandbox-core';
import type { Storage } from './storage';

// The state kept in memory only (`--memory`, and `startSandbox()` without a data file): the
// core's own maps are the state, so there is nothing to commit and nothing to read back.

/** A storage that keeps nothing: every change is as durable as the process. */
export class MemoryStorage implements Storage {
  readonly durable = false;

  open(): Promise<SandboxSnapshot | null> {
    return Promise.resolve(null);
  }

  commit(): Promise<void> {
    return Promise.resolve();
  }

  compactionDue(): boolean {
    return false;
  }

  compact(): Promise<void> {
    return Promise.resolve();
  }

  /** Memory holds no state to restore; an error it is given is passed on as it is. */
  damaged(error: SnapshotError): Error {
    return error;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
