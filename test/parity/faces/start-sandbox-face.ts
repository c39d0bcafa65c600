import { startSandbox } from '@boundbook/sandbox';
import type { Face, FaceOptions } from './face';

/**
 * The sandbox face: `startSandbox()` in memory on a free port of 127.0.0.1, reached over real
 * HTTP, its webhook deliveries sent over real HTTP by its dispatcher.
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
  return {
    name: 'sandbox',
    origin: sandbox.url,
    apiUrl: sandbox.apiUrl,
    createAccount: (input) => sandbox.createAccount(input),
    stop: () => sandbox.stop(),
  };
}
