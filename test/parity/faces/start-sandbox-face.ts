import { readFileSync } from 'node:fs';
import { startSandbox } from '@fflkit/sandbox';
import { parse } from 'yaml';
import type { Face, FaceOptions } from './face';

/**
 * The sandbox face: `startSandbox()` in memory on a free port of 127.0.0.1, reached over real
 * HTTP, its webhook deliveries sent over real HTTP by its dispatcher. A fixtures file is loaded
 * as an integrator's CI job would, through `POST /_sandbox/fixtures`.
 *
 * @example
 * ```ts
 * const face = await startSandboxFace({});
 * const { token } = await face.createAccount();
 * await face.stop();
 * ```
 */
export async function startSandboxFace(options: FaceOptions): Promise<Face> {
  const sandbox = await startSandbox(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit });
  if (options.fixtures !== undefined) {
    // YAML is a superset of JSON: one parser reads either kind of file.
    const file: unknown = parse(readFileSync(options.fixtures, 'utf8'));
    const response = await fetch(`${sandbox.url}/_sandbox/fixtures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(file),
    });
    if (response.status !== 200) {
      await sandbox.stop();
      throw new Error(
        `the sandbox refused the fixtures file ${options.fixtures}: ${response.status} ${await response.text()}`,
      );
    }
  }
  return {
    name: 'sandbox',
    origin: sandbox.url,
    apiUrl: sandbox.apiUrl,
    createAccount: (input) => sandbox.createAccount(input),
    stop: () => sandbox.stop(),
  };
}
