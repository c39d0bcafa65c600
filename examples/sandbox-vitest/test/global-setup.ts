import { startSandbox } from '@fflkit/sandbox';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  // What the tests read with inject(): values cross from this process to the test workers, so
  // only the sandbox's address is passed; each test makes its own account through it.
  export interface ProvidedContext {
    /** Origin of the sandbox, such as `http://127.0.0.1:53124`. */
    sandboxUrl: string;
  }
}

/**
 * Starts one sandbox, in memory on a free port, before any test file runs, and stops it after the
 * last one. Every test file and worker shares it; accounts keep the tests apart.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const sandbox = await startSandbox({ port: 0 });
  project.provide('sandboxUrl', sandbox.url);
  return () => sandbox.stop();
}
