import type { SandboxDelivery, WebhookEndpoint } from '@fflkit/types';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox';
import { receiptBody } from '../support/receipt-body';
import { startReceiver, type LocalReceiver, type Received, type Reply } from '../support/local-receiver';

/** An answer of the sandbox over HTTP. */
export interface Answer<T = unknown> {
  status: number;
  body: T;
}

/** Calls the sandbox at `origin` over HTTP with a bearer token. */
export function client(origin: string, token: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<Answer<T>> => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
  };
  let serial = 0;
  return {
    api: <T = unknown>(method: string, path: string, body?: unknown) => call<T>(method, `/rest/v1${path}`, body),
    control: <T = unknown>(method: string, path: string, body?: unknown) => call<T>(method, `/_sandbox${path}`, body),
    /** Creates the next receipt and answers its id. */
    async receipt(): Promise<number> {
      serial += 1;
      const created = await call<{ data: { id: number } }>(
        'POST',
        '/rest/v1/receipts',
        JSON.parse(receiptBody(serial)),
      );
      if (created.status !== 201) throw new Error(`POST /receipts answered ${created.status}`);
      return created.body.data.id;
    },
    async endpoint(url: string, events: string[] = ['*']): Promise<{ data: WebhookEndpoint; secret: string }> {
      const created = await call<{ data: WebhookEndpoint; secret: string }>('POST', '/rest/v1/webhooks', {
        url,
        events,
      });
      if (created.status !== 201) throw new Error(`POST /webhooks answered ${created.status}`);
      return created.body;
    },
    async deliveries(): Promise<SandboxDelivery[]> {
      return (await call<{ data: SandboxDelivery[] }>('GET', '/_sandbox/deliveries')).body.data;
    },
    /** Advances the account's clock; the answer comes once every attempt due by then is made. */
    async advance(seconds: number): Promise<void> {
      const answer = await call('POST', '/_sandbox/clock/advance', { seconds });
      if (answer.status !== 200) throw new Error(`POST /_sandbox/clock/advance answered ${answer.status}`);
    },
  };
}

const opened: Sandbox[] = [];
const receivers: LocalReceiver[] = [];

/** Stops every sandbox and receiver the test started; for `afterEach`. */
export async function closeAll(): Promise<void> {
  await Promise.all(opened.splice(0).map((sandbox) => sandbox.stop()));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
}

/** Starts a sandbox listening on 127.0.0.1 (in memory unless `data` is given). */
export async function openSandbox(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const sandbox = await createSandbox({ host: '127.0.0.1', port: 0, data: undefined, rateLimit: 0, ...options });
  opened.push(sandbox);
  await sandbox.start();
  return sandbox;
}

/** Starts a local receiver answering with `reply`. */
export async function openReceiver(reply?: (request: Received) => Reply): Promise<LocalReceiver> {
  const receiver = await startReceiver(reply);
  receivers.push(receiver);
  return receiver;
}

/**
 * A started sandbox with an account and one endpoint (`events`) at a local receiver's `/hook`.
 */
export async function openWorld(options: Partial<SandboxOptions> = {}, events: string[] = ['*']) {
  const receiver = await openReceiver();
  const sandbox = await openSandbox(options);
  const { token } = await sandbox.createAccount();
  const sandboxClient = client(sandbox.origin, token);
  const { data: webhook, secret } = await sandboxClient.endpoint(`${receiver.url}/hook`, events);
  return { sandbox, receiver, token, webhook, secret, ...sandboxClient };
}
