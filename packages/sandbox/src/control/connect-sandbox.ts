import type { SandboxControl } from './sandbox-control';
import { SandboxControlError } from './sandbox-control-error';

/** Options of {@link connectSandbox}. */
export interface ConnectSandboxOptions {
  /** The `fetch` to call the control API with; defaults to the global one, looked up per call. */
  fetch?: typeof fetch;
}

/**
 * Typed calls of the control API of a sandbox that is already running, known by its origin: a
 * sandbox started by a vitest global setup and handed to test workers as a URL, or one started
 * with `pnpm start` or `boundbook-sandbox`.
 *
 * @example
 * ```ts
 * const sandbox = connectSandbox(inject('sandboxUrl'));
 * const { token } = await sandbox.createAccount({ books: ['Consignment'] });
 * await sandbox.clock.advance(token, 60); // the first retry of a failed delivery falls due
 * const [delivery] = await sandbox.deliveries.list(token);
 * ```
 */
export function connectSandbox(url: string, options: ConnectSandboxOptions = {}): SandboxControl {
  const origin = readOrigin(url);

  async function call<T>(method: string, path: string, token: string | undefined, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const send = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await send(`${origin}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    } catch (error) {
      throw new SandboxControlError(0, undefined, `[@boundbook/sandbox] ${method} ${path}: no answer from ${origin}; is the sandbox running?`, { cause: error });
    }
    const text = await response.text();
    const parsed: unknown = text === '' ? undefined : parseJson(text);
    if (response.ok && response.status !== 204 && (typeof parsed !== 'object' || parsed === null)) {
      throw new SandboxControlError(
        response.status,
        parsed,
        `[@boundbook/sandbox] ${method} ${path} answered ${response.status} without JSON: is ${origin} a BoundBook sandbox?`,
      );
    }
    if (!response.ok) {
      const message = (parsed as { message?: unknown } | undefined)?.message;
      throw new SandboxControlError(
        response.status,
        parsed,
        `[@boundbook/sandbox] ${method} ${path} answered ${response.status}: ${typeof message === 'string' ? message : text}`,
      );
    }
    return parsed as T;
  }

  const data = async <T>(answer: Promise<{ data: T }>): Promise<T> => (await answer).data;

  return {
    url: origin,
    apiUrl: `${origin}/rest/v1`,
    async createAccount(input = {}) {
      const { data: account, token } = await call<{ data: SandboxAccountData; token: string }>('POST', '/_sandbox/accounts', undefined, input);
      return { account, token };
    },
    reset: (token) => call('POST', '/_sandbox/reset', token),
    tokens: {
      async create(token, input) {
        const { data: record, token: created } = await call<{ data: SandboxTokenData; token: string }>('POST', '/_sandbox/tokens', token, input);
        return { record, token: created };
      },
      revoke: (token, id) => call('DELETE', `/_sandbox/tokens/${id}`, token),
    },
    books: {
      create: (token, name) => data(call('POST', '/_sandbox/books', token, { name })),
    },
    clock: {
      now: (token) => data(call('GET', '/_sandbox/clock', token)),
      advance: (token, seconds) => data(call('POST', '/_sandbox/clock/advance', token, { seconds })),
    },
    deliveries: {
      list: (token) => data(call('GET', '/_sandbox/deliveries', token)),
      redeliver: (token, id) => data(call('POST', `/_sandbox/deliveries/${encodeURIComponent(id)}/redeliver`, token)),
    },
    webhooks: {
      ping: (token, id) => data(call('POST', `/_sandbox/webhooks/${id}/ping`, token)),
      enable: (token, id) => data(call('POST', `/_sandbox/webhooks/${id}/enable`, token)),
    },
    receipts: {
      audit: (token, id) => data(call('GET', `/_sandbox/receipts/${id}/audit`, token)),
      attachDocument: (token, id, input) => data(call('POST', `/_sandbox/receipts/${id}/documents`, token, input)),
      putE4473: (token, id, input) => data(call('PUT', `/_sandbox/receipts/${id}/e4473`, token, input)),
    },
    requests: (token) => data(call('GET', '/_sandbox/requests', token)),
  };
}

type SandboxAccountData = Awaited<ReturnType<SandboxControl['createAccount']>>['account'];
type SandboxTokenData = Awaited<ReturnType<SandboxControl['tokens']['create']>>['record'];

function readOrigin(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new TypeError(`[@boundbook/sandbox] connectSandbox(): url must be the sandbox's http(s) origin, such as http://127.0.0.1:4010; got ${JSON.stringify(url)}`);
  }
  return parsed.origin;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
