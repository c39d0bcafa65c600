import { randomInt } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Receipt, SandboxDelivery, SandboxWebhookEndpointState } from '@fflkit/types';
import { parseJson } from '@fflkit/sandbox-core/control';
import { connectSandbox, type SandboxControl, SandboxControlError } from '../control-client';
import { reasonOf } from '../support/errors';
import type { Random } from '../demo/demo-catalog';
import { CliUsageError, textOf, wholeNumberOf } from './options';
import {
  describeAttempt,
  describeFailure,
  sandboxAddress,
  type Subcommand,
  TOKEN_OPTION,
  URL_OPTION,
} from './subcommand';

// `fflkit-sandbox trigger EVENT`: the `stripe trigger` of the service. It makes the state change
// that fires the event, through the service API as an integration would (a new receipt, then
// its correction, disposition or deletion) or through the dashboard's Test action (ping), then
// prints the outcome of each delivery's first attempt as it is made.

const EVENTS = ['receipt.created', 'receipt.updated', 'receipt.disposed', 'receipt.deleted', 'ping'] as const;
type TriggeredEvent = (typeof EVENTS)[number];

/** How often the deliveries are looked at while their first attempts are awaited. */
const POLL_MS = 100;

/** `fflkit-sandbox trigger EVENT --token T [--url U] [--wait SECONDS]`. */
export const triggerCommand: Subcommand = {
  name: 'trigger',
  summary: 'Fire a webhook event and print the outcome of each delivery',
  usage: '<event> --token <token> [--url <url>] [--wait <seconds>]',
  positionals: 1,
  description: `Makes the change that fires the event in the account of the token, as an integration would,
and prints the outcome of the first attempt of each delivery it makes, as it is attempted:

  receipt.created    records a new receipt (a realistic firearm from a distributor)
  receipt.updated    records a new receipt, then corrects its purchase amount
  receipt.disposed   records a new receipt, then disposes of it to a buyer with a Form 4473
  receipt.deleted    records a new receipt, then deletes it (the token needs delete)
  ping               the dashboard's Test action on every enabled endpoint

The receipt goes into the account's first book, dated today on the account's clock. An event
of a receipt fires receipt.created first, which endpoints that subscribe to it get too.

The change is made with the token's own requests, which its rate limit counts. When the token
has spent its requests of the minute, trigger waits for its window to end if it ends within
--wait, and otherwise says when it ends: the limit counts real time, so advancing the sandbox's
clock does not end it.

Exits 0 when every first attempt succeeded; 1 when one failed (the sandbox retries it on its
schedule) or was not made within --wait, when no enabled endpoint gets the event (nothing is
changed then), or when the sandbox refused the token or the change.
`,
  options: [
    TOKEN_OPTION,
    URL_OPTION,
    {
      flag: 'wait',
      kind: 'value',
      placeholder: '<seconds>',
      help: [
        'How long to wait for the first attempts, and for the end of the',
        "token's rate-limit window when its requests are spent (default 10)",
      ],
    },
  ],
  async run({ options, env, out, err }) {
    const event = options.positionals[0];
    if (event === undefined || !(EVENTS as readonly string[]).includes(event)) {
      throw new CliUsageError(
        `${event === undefined ? 'trigger needs an event' : `Unknown event '${event}'`}: one of ${EVENTS.join(', ')}`,
      );
    }
    const waitMs = wholeNumberOf(textOf(options, 'wait'), 10, 1, 3_600) * 1_000;
    const { origin, token } = sandboxAddress(options, env);
    const control = connectSandbox(origin);
    const fail = (message: string): number => {
      err(`fflkit-sandbox trigger: ${message}\n`);
      return 1;
    };
    let endpoints: SandboxWebhookEndpointState[];
    try {
      endpoints = await control.webhooks.list(token);
    } catch (error) {
      return fail(describeFailure(error, origin));
    }
    const targets = endpoints.filter(
      (endpoint) =>
        endpoint.enabled && (event === 'ping' || endpoint.events.some((name) => name === '*' || name === event)),
    );
    if (targets.length === 0) {
      const disabled = endpoints.filter((endpoint) => !endpoint.enabled).map((endpoint) => endpoint.id);
      const enable = disabled.map((id) => `endpoint ${id} with POST ${origin}/_sandbox/webhooks/${id}/enable`);
      return fail(
        `no enabled endpoint of the account gets ${event}, so nothing was changed: add one with POST ${origin}/rest/v1/webhooks` +
          (enable.length === 0 ? '' : `, or re-enable ${enable.join(', or ')}`),
      );
    }
    const urls = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint.url]));
    const print = (delivery: SandboxDelivery): void => out(`${describeAttempt(delivery, urls)}\n`);

    let deliveries: SandboxDelivery[];
    try {
      if (event === 'ping') {
        // A ping answers once its first attempt is made.
        deliveries = [];
        for (const endpoint of targets) {
          const delivery = await control.webhooks.ping(token, endpoint.id);
          deliveries.push(delivery);
          print(delivery);
        }
        return deliveries.every(succeeded) ? 0 : 1;
      }
      const before = new Set((await control.deliveries.list(token)).map((delivery) => delivery.id));
      const receipt = await changeState(
        control,
        { token, waitMs, err },
        event as Exclude<TriggeredEvent, 'ping'>,
        // The demo's catalog loads only here, off the sandbox's start path (the cold-start benchmark).
        (await import('../demo/demo-catalog')).seededRandom(randomInt(2 ** 32)),
        out,
      );
      deliveries = (await control.deliveries.list(token)).filter((delivery) => !before.has(delivery.id)).reverse();
      if (deliveries.length === 0)
        return fail(
          `receipt ${receipt.id} was recorded, but no delivery was made: was the endpoint deleted meanwhile?`,
        );
    } catch (error) {
      return fail(explain(error, origin));
    }
    return (await awaitFirstAttempts(control, token, deliveries, waitMs, print, err)) ? 0 : 1;
  },
};

/** How the service API is called: with this token, waiting at most `waitMs` for a rate-limit window. */
interface Caller {
  readonly token: string;
  readonly waitMs: number;
  err(text: string): void;
}

/** Makes the change that fires `event`; resolves with the receipt it acted on. */
async function changeState(
  control: SandboxControl,
  caller: Caller,
  event: Exclude<TriggeredEvent, 'ping'>,
  random: Random,
  out: (text: string) => void,
): Promise<Receipt> {
  const { importedReceipt, randomPerson } = await import('../demo/demo-catalog');
  const { token } = caller;
  const [first] = await control.books.list(token);
  const book = first?.name ?? 'Main';
  const { now } = await control.clock.now(token);
  const today = now.slice(0, 10);
  const api = (method: string, path: string, body?: unknown) =>
    sendWithinLimit<{ data: Receipt }>(control.apiUrl, method, path, caller, body);
  const { data: receipt } = await api('POST', '/receipts', importedReceipt(random, book, today));
  out(
    `Recorded receipt ${receipt.id}: ${receipt.manufacturer} ${receipt.model}, serial ${receipt.serial_number}, in the book ${receipt.book} (line ${receipt.record})\n`,
  );
  if (event === 'receipt.updated') {
    const corrected = Math.round(((receipt.purchase_amount ?? 0) + 10) * 100) / 100;
    await api('PUT', `/receipts/${receipt.id}`, { purchase_amount: corrected });
    out(`Corrected its purchase amount to ${corrected.toFixed(2)}\n`);
  } else if (event === 'receipt.disposed') {
    const buyer = randomPerson(random);
    const form = `4473-T${String(randomInt(10 ** 9)).padStart(9, '0')}`;
    await api('POST', `/receipts/${receipt.id}/dispose`, {
      disposition_date: today,
      disposed_to: buyer.name,
      form_4473_serial: form,
    });
    out(`Disposed of it to ${buyer.name} on Form 4473 ${form}\n`);
  } else if (event === 'receipt.deleted') {
    await api('DELETE', `/receipts/${receipt.id}`);
    out('Deleted it\n');
  }
  return receipt;
}

/**
 * A service API call that waits out the token's rate-limit window when it ends within the
 * caller's `waitMs` (as `Retry-After` says), and sends it again; a 429 beyond that rejects.
 */
async function sendWithinLimit<T>(
  apiUrl: string,
  method: string,
  path: string,
  caller: Caller,
  body?: unknown,
): Promise<T> {
  const deadline = Date.now() + caller.waitMs;
  for (;;) {
    try {
      return await send<T>(apiUrl, method, path, caller.token, body);
    } catch (error) {
      const seconds = error instanceof ApiRefusal && error.status === 429 ? error.retryAfter : undefined;
      if (seconds === undefined || Date.now() + seconds * 1000 > deadline) throw error;
      caller.err(
        `fflkit-sandbox trigger: the token's requests of this minute are spent; waiting ${seconds} s for its rate-limit window to end (the limit counts real time: advancing the sandbox's clock does not end it)\n`,
      );
      await delay(seconds * 1000);
    }
  }
}

/** A refusal of the service API, with the rate-limit headers of a 429. */
class ApiRefusal extends SandboxControlError {
  constructor(
    status: number,
    body: unknown,
    message: string,
    /** `Retry-After`, in seconds. */
    readonly retryAfter: number | undefined,
    /** `X-RateLimit-Reset`, in Unix seconds. */
    readonly resetSecond: number | undefined,
  ) {
    super(status, body, message);
  }
}

function wholeSeconds(header: string | null): number | undefined {
  const seconds = header === null || header.trim() === '' ? Number.NaN : Number(header);
  return Number.isSafeInteger(seconds) && seconds >= 0 ? seconds : undefined;
}

/** A service API call, made as an integration makes it; a refusal rejects with a {@link SandboxControlError}. */
async function send<T>(apiUrl: string, method: string, path: string, token: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: `Bearer ${token}`,
    'user-agent': 'fflkit-sandbox-trigger',
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${apiUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new SandboxControlError(0, undefined, `${method} ${path}: no answer`, { cause: error });
  }
  const text = await response.text();
  const parsed: unknown = text === '' ? undefined : parseJson(text);
  if (!response.ok) {
    const retryAfter = response.headers.get('retry-after');
    throw new ApiRefusal(
      response.status,
      parsed,
      `${method} ${path} answered ${response.status}${retryAfter === null ? '' : ` (Retry-After: ${retryAfter})`}`,
      wholeSeconds(retryAfter),
      wholeSeconds(response.headers.get('x-ratelimit-reset')),
    );
  }
  // A proxy's page, or something other than a sandbox at --url, answers without the JSON asked for.
  if (response.status !== 204 && (typeof parsed !== 'object' || parsed === null)) {
    throw new SandboxControlError(
      response.status,
      parsed,
      `${method} ${path} answered ${response.status} without JSON: is ${apiUrl} a FFLKit sandbox?`,
    );
  }
  return parsed as T;
}

/** What to tell the user of a refused change, with what to do for the refusals a trigger meets. */
function explain(error: unknown, origin: string): string {
  if (error instanceof SandboxControlError && (error.status === 403 || error.status === 429)) {
    const message = (error.body as { message?: unknown } | undefined)?.message;
    const hint =
      error.status === 403
        ? 'use a token with the read, write and delete permissions of a dealer, manufacturer or importer account'
        : rateLimitHint(error instanceof ApiRefusal ? error : undefined);
    return `${reasonOf(error)}: ${typeof message === 'string' ? `${message} ` : ''}${hint}`;
  }
  return describeFailure(error, origin);
}

/** When the token's window ends, that the clock does not end it, and the ways on. */
function rateLimitHint(error: ApiRefusal | undefined): string {
  const seconds = error?.retryAfter;
  const reset = error?.resetSecond;
  const when =
    seconds === undefined
      ? 'its window ends within a minute'
      : `its window ends in ${seconds} s${reset === undefined ? '' : `, at ${new Date(reset * 1000).toISOString().replace('.000Z', 'Z')}`}`;
  return `the token's requests of this minute are spent; ${when}. The limit counts real time, so advancing the sandbox's clock does not end it: trigger again then (or with --wait ${seconds === undefined ? 60 : seconds + 1}), with another token of the account (POST /_sandbox/tokens), or start the sandbox with --rate-limit 0`;
}

/**
 * Waits until every delivery has had its first attempt, printing each as soon as it and those
 * made before it have had theirs (so that they print in the order they were made), for at most
 * `waitMs`; resolves with whether every first attempt succeeded.
 */
async function awaitFirstAttempts(
  control: SandboxControl,
  token: string,
  deliveries: readonly SandboxDelivery[],
  waitMs: number,
  print: (delivery: SandboxDelivery) => void,
  err: (text: string) => void,
): Promise<boolean> {
  const queue = [...deliveries];
  let allSucceeded = true;
  const deadline = Date.now() + waitMs;
  for (;;) {
    while (queue[0] !== undefined && (queue[0].attempts.length > 0 || queue[0].state !== 'pending')) {
      const delivery = queue.shift()!;
      print(delivery);
      allSucceeded &&= succeeded(delivery);
    }
    if (queue.length === 0) return allSucceeded;
    if (Date.now() >= deadline) {
      for (const delivery of queue) {
        err(
          `fflkit-sandbox trigger: the ${delivery.event} delivery ${delivery.id} was not attempted within ${waitMs / 1000} s; it is still pending (see GET /_sandbox/deliveries)\n`,
        );
      }
      return false;
    }
    await delay(POLL_MS);
    const latest = new Map((await control.deliveries.list(token)).map((delivery) => [delivery.id, delivery]));
    queue.forEach((delivery, index) => {
      queue[index] = latest.get(delivery.id) ?? delivery;
    });
  }
}

function succeeded(delivery: SandboxDelivery): boolean {
  const first = delivery.attempts[0];
  return first !== undefined && first.status_code !== null && first.status_code >= 200 && first.status_code < 300;
}
