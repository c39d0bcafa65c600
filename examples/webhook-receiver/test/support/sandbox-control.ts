import type { SandboxDelivery } from '@boundbook/types';

/** The calls of the sandbox's control API (openapi/sandbox.yaml) these tests make. */
export interface SandboxControl {
  /** `GET /_sandbox/deliveries`: every delivery of the account, newest first. */
  deliveries(): Promise<SandboxDelivery[]>;
  /** `POST /_sandbox/deliveries/{id}/redeliver`: one more attempt, made before it answers. */
  redeliver(deliveryId: string): Promise<SandboxDelivery>;
  /** `POST /_sandbox/webhooks/{id}/ping`: the dashboard's Test action, attempted before it answers. */
  ping(webhookId: number): Promise<SandboxDelivery>;
  /** `POST /_sandbox/clock/advance`: runs every attempt that falls due before it answers. */
  advanceClock(seconds: number): Promise<void>;
}

/**
 * The control API of one sandbox account, as the account's token sees it.
 *
 * @example
 * ```ts
 * const [delivery] = await sandboxControl(sandbox.url, token).deliveries();
 * ```
 */
export function sandboxControl(origin: string, token: string): SandboxControl {
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> => {
    const response = await fetch(`${origin}/_sandbox${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} /_sandbox${path} answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { data: T }).data;
  };
  return {
    deliveries: () => call<SandboxDelivery[]>('GET', '/deliveries'),
    redeliver: (deliveryId) => call<SandboxDelivery>('POST', `/deliveries/${deliveryId}/redeliver`),
    ping: (webhookId) => call<SandboxDelivery>('POST', `/webhooks/${webhookId}/ping`),
    advanceClock: async (seconds) => {
      await call<unknown>('POST', '/clock/advance', { seconds });
    },
  };
}
