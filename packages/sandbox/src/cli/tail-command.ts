import { setTimeout as delay } from 'node:timers/promises';
import type { ActivityEvent } from '@fflkit/sandbox-core/control';
import { connectSandbox, SandboxControlError } from '../control-client';
import { textOf, wholeNumberOf } from './options';
import {
  describeAttempt,
  describeFailure,
  sandboxAddress,
  type Subcommand,
  TOKEN_OPTION,
  URL_OPTION,
} from './subcommand';

// `fflkit-sandbox tail`: the `stripe logs tail` of the service. It follows the account's
// event stream (GET /_sandbox/events) and prints a line per service API request and one per
// delivery attempt, until Ctrl-C or until the sandbox stops and does not come back.

/** How long to wait between two tries to reconnect. */
const RECONNECT_EVERY_MS = 250;

/** `fflkit-sandbox tail --token T [--url U] [--reconnect SECONDS]`. */
export const tailCommand: Subcommand = {
  name: 'tail',
  summary: "Follow an account's requests and webhook deliveries as they happen",
  usage: '--token <token> [--url <url>] [--reconnect <seconds>]',
  description: `Follows the account of the token and prints, as they happen, a line for each request to the
service API and one for each attempt of a webhook delivery:

  POST /rest/v1/receipts 201 4 ms
  receipt.created http://127.0.0.1:3000/webhooks 200 delivered in 12 ms

Control calls are not shown. Runs until Ctrl-C (exit 0). When the sandbox stops, tail tries
to reconnect for --reconnect seconds, so that it goes on across a restart on the same data
file (what happens while it is away is not shown), then ends with exit 0; it exits 1 when
the sandbox refuses the token or no sandbox answers at the start.
`,
  options: [
    TOKEN_OPTION,
    URL_OPTION,
    {
      flag: 'reconnect',
      kind: 'value',
      placeholder: '<seconds>',
      help: ['How long to try to reconnect when the sandbox stops (default', '10; 0 ends at once)'],
    },
  ],
  async run({ options, env, signal, out, err }) {
    const { origin, token } = sandboxAddress(options, env);
    const reconnectMs = wholeNumberOf(textOf(options, 'reconnect'), 10, 0, 3_600) * 1_000;
    const control = connectSandbox(origin);
    const urls = new Map<number, string>();
    const attemptsShown = new Map<string, number>();

    const print = async (activity: ActivityEvent): Promise<void> => {
      if (activity.event === 'request') {
        const { method, path, status, duration_ms: took } = activity.data;
        out(`${method} ${path} ${status} ${Math.round(took)} ms\n`);
        return;
      }
      const delivery = activity.data;
      const shown = attemptsShown.get(delivery.id) ?? 0;
      if (delivery.attempts.length <= shown) return;
      if (!urls.has(delivery.webhook_id)) {
        // An endpoint made since the last look: its URL is looked up once.
        for (const endpoint of await control.webhooks.list(token).catch(() => [])) urls.set(endpoint.id, endpoint.url);
      }
      for (const attempt of delivery.attempts.slice(shown)) out(`${describeAttempt(delivery, urls, attempt)}\n`);
      attemptsShown.set(delivery.id, delivery.attempts.length);
    };

    // The token is checked first, so that a refusal or an absent sandbox is told at once.
    try {
      await control.clock.now(token);
    } catch (error) {
      err(`fflkit-sandbox tail: ${describeFailure(error, origin)}\n`);
      return 1;
    }
    err(`Following the requests and deliveries of the account at ${origin} (Ctrl-C to stop)\n`);
    for (;;) {
      try {
        for await (const activity of control.events(token, { signal })) await print(activity);
      } catch (error) {
        // A connection lost is a sandbox that stopped; any other failure is told as it is.
        if (!(error instanceof SandboxControlError && error.status === 0)) {
          err(`fflkit-sandbox tail: ${describeFailure(error, origin)}\n`);
          return 1;
        }
      }
      if (signal.aborted) return 0;
      const back = await reconnect(control, token, reconnectMs, signal, err, origin);
      if (back !== 'back') return back === 'refused' ? 1 : 0;
    }
  },
};

/**
 * After the stream ended: waits until the sandbox answers again with the token, for at most
 * `ms`. Resolves with `back`, `refused` (it came back without the account), or `gone`.
 */
async function reconnect(
  control: ReturnType<typeof connectSandbox>,
  token: string,
  ms: number,
  signal: AbortSignal,
  err: (text: string) => void,
  origin: string,
): Promise<'back' | 'refused' | 'gone'> {
  if (ms > 0) err(`The sandbox at ${origin} stopped; waiting up to ${ms / 1000} s for it to come back\n`);
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await control.clock.now(token);
      err('Reconnected: what happened meanwhile is not shown\n');
      return 'back';
    } catch (error) {
      if (error instanceof SandboxControlError && error.status === 401) {
        err(
          `fflkit-sandbox tail: the sandbox at ${origin} came back without the account of the token (a sandbox in memory forgets its accounts when it stops)\n`,
        );
        return 'refused';
      }
    }
    if (signal.aborted) return 'gone';
    if (Date.now() >= deadline) {
      err(
        `The sandbox at ${origin} stopped${ms > 0 ? ` and did not come back within ${ms / 1000} s` : ''}: tail ends\n`,
      );
      return 'gone';
    }
    await delay(RECONNECT_EVERY_MS, undefined, { signal }).catch(() => undefined);
  }
}
