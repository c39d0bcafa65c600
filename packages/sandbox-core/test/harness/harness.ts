import { createSandboxCore } from '../../src/core';
import type { SandboxCoreOptions, SandboxResponse } from '../../src/index';

// The contract's sample receipt and dispositions, shared with the other packages' tests.
export { dispositionBody, dispositionWithAddressBody, receiptBody } from '@fflkit/test-fixtures';

/** 2025-03-14T15:04:05Z, the moment of the contract's examples. */
export const START = Date.UTC(2025, 2, 14, 15, 4, 5);

/** A byte source that counts, so tokens and ids are the same on every run. */
export function countingBytes(): (length: number) => Uint8Array {
  let next = 0;
  return (length) => Uint8Array.from({ length }, () => (next = (next + 37) % 256));
}

/** How a test calls the core. */
export interface CallOptions {
  token?: string;
  query?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** A core on a hand-moved wall clock, with a dealer account ready. */
export function harness(options: Omit<SandboxCoreOptions, 'now' | 'randomBytes'> = {}) {
  const clock = { ms: START };
  const core = createSandboxCore({ now: () => clock.ms, randomBytes: countingBytes(), ...options });
  const call = (method: string, path: string, call: CallOptions = {}): Promise<SandboxResponse> => {
    const headers: Record<string, string> = { host: 'sandbox.test', ...call.headers };
    if (call.token !== undefined) headers['authorization'] = `Bearer ${call.token}`;
    const body = call.rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
    return core.handle({ method, path, query: call.query ?? '', headers, body });
  };
  return { core, clock, call };
}

/** A harness with an account made through the control API. */
export async function withAccount(
  input: Record<string, unknown> = {},
  options: Omit<SandboxCoreOptions, 'now' | 'randomBytes'> = {},
) {
  const h = harness(options);
  const created = await h.call('POST', '/_sandbox/accounts', { body: input });
  const { data, token } = created.body as { data: { id: number }; token: string };
  const api = (method: string, path: string, call: CallOptions = {}) =>
    h.call(method, `/rest/v1${path}`, { token, ...call });
  const control = (method: string, path: string, call: CallOptions = {}) =>
    h.call(method, `/_sandbox${path}`, { token, ...call });
  return { ...h, token, accountId: data.id, api, control };
}

/** The `data` of an answer. */
export function dataOf<T = Record<string, unknown>>(response: SandboxResponse): T {
  return (response.body as { data: T }).data;
}

/** The `errors` of a 422. */
export function errorsOf(response: SandboxResponse): Record<string, string[]> {
  return (response.body as { errors: Record<string, string[]> }).errors;
}
