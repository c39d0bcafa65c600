// The receiver made by `createWebhookHandler`: its options, checked once at setup; `receive`,
// which verifies, deduplicates (on the body's digest by default), routes by event name and
// answers; and `handle`, which reads a Fetch `Request` into `receive`. Each build passes its own
// `MatchSecret` and `Sha256Hex`.
import { HEADERS, WEBHOOK_EVENT_NAMES, type WebhookEventName, type WebhookEventOf } from '@fflkit/types';
import { type WebhookAnswer, bodyTooLarge, methodNotAllowed, unreadableBody, webhookAnswer } from './answers';
import { exceedsBytes, readRequestBody } from './body';
import {
  type DeduplicateBy,
  type DeliveryClaim,
  type DeliveryStore,
  type Sha256Hex,
  createMemoryDeliveryStore,
} from './dedup';
import { MESSAGE_PREFIX, WebhookVerificationError, describeValue, isMisuseError, misuseError } from './errors';
import {
  type UnknownWebhookEvent,
  type VerifiedDelivery,
  type WebhookHeaders,
  readHeadersArgument,
  verifyDelivery,
} from './events';
import { type VerifyOptions, readFunction, readOptionsObject, readPositiveNumber, readVerifyOptions } from './options';
import {
  type MatchSecret,
  type WebhookPayload,
  type WebhookSecret,
  readEndpointSecrets,
  readPayload,
} from './signature';

/** What a handler learns about the delivery beside its event. */
export interface WebhookContext {
  /**
   * `X-SVC-Delivery`: the same across the retries of one delivery. The signature does not cover
   * it, so it is for logs, not for deciding anything.
   */
  readonly deliveryId: string;
  /** Index of the secret that matched in the `secret` option (0 for a single secret). */
  readonly secretIndex: number;
}

/** One handler per event name, each given the event narrowed to its name; `undefined` is no handler. */
export type WebhookEventHandlers = {
  readonly [Name in WebhookEventName]?: ((event: WebhookEventOf<Name>, context: WebhookContext) => unknown) | undefined;
};

/** Where an error answered with a 500 came from. */
export interface WebhookErrorInfo {
  readonly outcome: 'handler_failed' | 'store_failed' | 'setup_error';
  readonly deliveryId: string | undefined;
  readonly event: string | undefined;
}

/** Options of `createWebhookHandler`. An option given as `undefined` is an option not given. */
export interface WebhookHandlerOptions {
  /**
   * The endpoint's signing secret exactly as the service showed it (`whsec_...`, prefix
   * included), or several while rotating (`[newSecret, oldSecret]`); a secret without the prefix
   * throws a `TypeError` here. A receiver that learns its secret only once it runs (from
   * `webhooks.create`, or a secret manager) gives a function instead: it is called at the first
   * delivery, and the secret it gives (or its promise resolves to) is checked and kept. Until it
   * gives one, each delivery waits for it; one that throws, rejects or gives no valid secret is
   * answered 500 `setup_error` (the service retries it) and the function is called again at the
   * next delivery.
   */
  readonly secret: WebhookSecret | (() => WebhookSecret | Promise<WebhookSecret>);
  /**
   * Handlers by event name. An event without a handler is acknowledged (200, `ignored`); `ping`
   * is answered without one. A handler that throws gives 500, so the sender retries.
   */
  readonly on: WebhookEventHandlers;
  /** Handler of events newer than this package; without it they are acknowledged (200, `ignored`). */
  readonly onUnknownEvent?: ((event: UnknownWebhookEvent, context: WebhookContext) => unknown) | undefined;
  /** Where deliveries are deduplicated: a memory store by default, `false` for none. */
  readonly store?: DeliveryStore | false | undefined;
  /**
   * What a delivery is recognised by: `body` by default, the SHA-256 digest of its exact bytes,
   * computed once its signature matched (a retry, or a replay under a new `X-SVC-Delivery`, is a
   * duplicate; two distinct events must never have the same bytes); or `delivery-id`, the
   * `X-SVC-Delivery` header, which the signature does not cover (a retry is a duplicate, a
   * replay under a new id is processed again).
   */
  readonly deduplicateBy?: DeduplicateBy | undefined;
  /** Refuse events whose timestamp is further than this from now (400). Off by default; see `constructEvent`. */
  readonly toleranceSeconds?: number | undefined;
  /** The clock, in epoch milliseconds; `Date.now` by default. */
  readonly now?: (() => number) | undefined;
  /**
   * Largest body, in bytes (text in UTF-8), however it comes: read from the request or given to
   * `receive` already read. A larger one is answered 413 before its signature is computed. 1 MiB
   * by default.
   */
  readonly maxBodyBytes?: number | undefined;
  /** Told of every error answered with a 500; `console.error` by default. */
  readonly onError?: ((error: unknown, info: WebhookErrorInfo) => void) | undefined;
}

/** A delivery as any framework hands it over: the raw body and the headers. */
export interface WebhookDelivery {
  readonly payload: WebhookPayload;
  readonly headers: WebhookHeaders;
}

/** The receiver made by `createWebhookHandler`. Its methods need no `this`: pass them around. */
export interface WebhookHandler {
  /**
   * Answers a Fetch `Request` (Next.js route handlers, Hono, Workers, Deno, Bun): 405 unless
   * POST, 413 past `maxBodyBytes`, otherwise as `receive`. Never rejects.
   */
  readonly handle: (request: Request) => Promise<Response>;
  /**
   * Answers a delivery given as raw body and headers, for any other framework (and the
   * adapters): 413 past `maxBodyBytes`, otherwise verifies, deduplicates, routes. Never rejects.
   */
  readonly receive: (delivery: WebhookDelivery) => Promise<WebhookAnswer>;
  /** Largest body the adapters read, in bytes. */
  readonly maxBodyBytes: number;
}

/** `createWebhookHandler`'s options, checked, with their defaults. */
interface HandlerSettings {
  /** The secrets to verify with, known at once or given by the `secret` function. */
  readonly secrets: () => readonly string[] | Promise<readonly string[]>;
  readonly on: WebhookEventHandlers;
  readonly onUnknownEvent: WebhookHandlerOptions['onUnknownEvent'];
  readonly store: DeliveryStore | undefined;
  readonly deduplicateBy: DeduplicateBy;
  readonly verify: VerifyOptions;
  readonly maxBodyBytes: number;
  readonly onError: (error: unknown, info: WebhookErrorInfo) => void;
}

type EventHandler = (event: never, context: WebhookContext) => unknown;

const CALLER = 'createWebhookHandler';
const OPTIONS = [
  'secret',
  'on',
  'onUnknownEvent',
  'store',
  'deduplicateBy',
  'toleranceSeconds',
  'now',
  'maxBodyBytes',
  'onError',
] as const;
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const EVENT_NAMES: readonly string[] = WEBHOOK_EVENT_NAMES;
const CLAIMS: readonly DeliveryClaim[] = ['claimed', 'processed', 'in_progress'];

/**
 * `createWebhookHandler` over a build's `matchSecret` and `sha256Hex`: checks the options (a
 * mistake throws a `TypeError` here, never a 500 at the first delivery), then builds `receive`
 * and the Fetch `handle` on top of it.
 */
export function createWebhookHandlerWith(
  matchSecret: MatchSecret,
  sha256Hex: Sha256Hex,
  options: unknown,
): WebhookHandler {
  const settings = readHandlerOptions(options);
  const receive = createReceive(matchSecret, sha256Hex, settings);
  const { maxBodyBytes } = settings;

  const handle = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST') return toResponse(methodNotAllowed());
    let body: Uint8Array | 'too_large';
    try {
      body = await readRequestBody(request, maxBodyBytes);
    } catch {
      return toResponse(unreadableBody());
    }
    if (body === 'too_large') return toResponse(bodyTooLarge(maxBodyBytes));
    return toResponse(await receive({ payload: body, headers: request.headers }));
  };

  return { handle, receive, maxBodyBytes };
}

function toResponse(answer: WebhookAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/**
 * `receive`: verify, then deduplicate on the delivery's key (claim, run the event's handler,
 * commit; release when it throws), and answer. Every failure becomes an answer, so the returned
 * function never rejects.
 */
function createReceive(
  matchSecret: MatchSecret,
  sha256Hex: Sha256Hex,
  settings: HandlerSettings,
): (delivery: WebhookDelivery) => Promise<WebhookAnswer> {
  const { store, deduplicateBy } = settings;

  const fail = (
    outcome: WebhookErrorInfo['outcome'],
    error: unknown,
    info: Omit<WebhookErrorInfo, 'outcome'>,
  ): WebhookAnswer => {
    report(error, { outcome, ...info });
    // A setup mistake is the receiver's own message and safe to show; a handler's error may not be.
    const message =
      outcome === 'setup_error' && isMisuseError(error)
        ? error.message
        : 'The receiver failed to process the delivery; the sender will retry it.';
    return webhookAnswer(outcome, message);
  };
  const report = (error: unknown, info: WebhookErrorInfo): void => {
    try {
      settings.onError(error, info);
    } catch {
      // A failing error reporter must not turn an answer into a rejected promise.
    }
  };

  return async (delivery) => {
    let payload: string | Uint8Array;
    let verified: VerifiedDelivery;
    try {
      payload = readPayload(delivery?.payload, 'receive');
      // A body a parser already read is measured here, before it costs an HMAC.
      if (exceedsBytes(payload, settings.maxBodyBytes)) return bodyTooLarge(settings.maxBodyBytes);
      const headers = readHeadersArgument(delivery.headers, 'receive');
      verified = await verifyDelivery(matchSecret, await settings.secrets(), payload, headers, settings.verify);
    } catch (error) {
      if (error instanceof WebhookVerificationError)
        return webhookAnswer(error.reason as WebhookAnswer['outcome'], error.message);
      return fail('setup_error', error, { deliveryId: undefined, event: undefined });
    }
    const { event, known, deliveryId, secretIndex } = verified;
    if (deliveryId === undefined) {
      return webhookAnswer(
        'missing_delivery_id',
        `The request has no ${HEADERS.delivery} header, which every delivery carries.`,
      );
    }
    const handler = (known ? settings.on[event.event as WebhookEventName] : settings.onUnknownEvent) as
      | EventHandler
      | undefined;
    if (handler === undefined) {
      return event.event === 'ping'
        ? webhookAnswer('processed', 'Pong.')
        : webhookAnswer('ignored', `No handler for ${event.event}; the delivery is acknowledged.`);
    }
    const info = { deliveryId, event: event.event };

    // The key is computed only now: the bytes it digests are known to be the service's.
    let key = '';
    let claim: unknown = 'claimed';
    try {
      if (store) {
        key = await sha256Hex(deduplicateBy === 'body' ? payload : deliveryId);
        claim = await store.claim(key);
      }
    } catch (error) {
      return fail('store_failed', error, info);
    }
    if (!CLAIMS.includes(claim as DeliveryClaim)) {
      return fail(
        'setup_error',
        misuseError(`store.claim must resolve to 'claimed', 'processed' or 'in_progress'; it gave ${String(claim)}`),
        info,
      );
    }
    if (claim === 'processed') return webhookAnswer('duplicate', 'Delivery already processed.');
    if (claim === 'in_progress')
      return webhookAnswer('delivery_in_progress', 'The delivery is being processed by another request; retry later.');

    try {
      await handler(event as never, { deliveryId, secretIndex });
    } catch (error) {
      try {
        await store?.release(key);
      } catch (releaseError) {
        report(releaseError, { outcome: 'store_failed', ...info });
      }
      return fail('handler_failed', error, info);
    }
    try {
      await store?.commit(key);
    } catch (error) {
      // The handler has run: answering 500 would have the sender deliver it again.
      report(error, { outcome: 'store_failed', ...info });
    }
    return webhookAnswer('processed', 'Delivery processed.');
  };
}

/** Checks `createWebhookHandler`'s options once, at setup, and fills in their defaults. */
function readHandlerOptions(options: unknown): HandlerSettings {
  const record = readOptionsObject(options, OPTIONS, CALLER);
  const verify = readVerifyOptions(record, CALLER);
  const store = record['store'];
  return {
    secrets: readSecretOption(record['secret']),
    on: readEventHandlers(record['on']),
    onUnknownEvent: readFunction(
      record['onUnknownEvent'],
      'onUnknownEvent',
      CALLER,
    ) as HandlerSettings['onUnknownEvent'],
    store:
      store === undefined
        ? createMemoryDeliveryStore({ now: verify.now })
        : store === false
          ? undefined
          : readStore(store),
    deduplicateBy: readDeduplicateBy(record['deduplicateBy']),
    verify,
    maxBodyBytes: readPositiveNumber(record['maxBodyBytes'], 'maxBodyBytes', CALLER, true) ?? DEFAULT_MAX_BODY_BYTES,
    onError:
      (readFunction(record['onError'], 'onError', CALLER) as HandlerSettings['onError'] | undefined) ?? reportToConsole,
  };
}

/**
 * The `secret` option as a function giving the secrets to verify with. Secrets given as they
 * are, are checked here, at setup. A function is called at the first delivery, and its secrets
 * checked then and kept; until it gives valid ones, the next delivery calls it again, and
 * deliveries that come while it runs wait for the same call.
 */
function readSecretOption(secret: unknown): HandlerSettings['secrets'] {
  if (typeof secret !== 'function') {
    const secrets = readEndpointSecrets(secret, CALLER, 'secret', ', or a function giving them once they are known');
    return () => secrets;
  }
  let secrets: readonly string[] | undefined;
  let pending: Promise<readonly string[]> | undefined;
  const load = async (): Promise<readonly string[]> => {
    const value: unknown = await (secret as () => unknown)();
    secrets = readEndpointSecrets(value, CALLER, 'the value of the secret function');
    return secrets;
  };
  return () => {
    if (secrets !== undefined) return secrets;
    if (pending === undefined) {
      const loading = load();
      pending = loading;
      // A failed call is not kept: the next delivery calls the function again.
      loading.catch(() => {
        pending = undefined;
      });
    }
    return pending;
  };
}

function readEventHandlers(on: unknown): WebhookEventHandlers {
  if (typeof on !== 'object' || on === null || Array.isArray(on)) {
    throw misuseError(
      `${CALLER}: on must be an object of handlers by event name ({ 'receipt.created': (event, context) => ... }); got ${describeValue(on)}`,
    );
  }
  for (const [name, handler] of Object.entries(on)) {
    if (!EVENT_NAMES.includes(name)) {
      throw misuseError(
        `${CALLER}: on names an unknown event "${name}"; the events are ${EVENT_NAMES.join(', ')} (use onUnknownEvent for newer ones)`,
      );
    }
    readFunction(handler, `on['${name}']`, CALLER);
  }
  return on as WebhookEventHandlers;
}

function readStore(store: unknown): DeliveryStore {
  const methods = ['claim', 'commit', 'release'] as const;
  if (
    typeof store === 'object' &&
    store !== null &&
    methods.every((method) => typeof (store as Record<string, unknown>)[method] === 'function')
  ) {
    return store as DeliveryStore;
  }
  throw misuseError(
    `${CALLER}: store must be a DeliveryStore (claim, commit and release) or false; got ${describeValue(store)} without them all`,
  );
}

function readDeduplicateBy(value: unknown): DeduplicateBy {
  if (value === undefined || value === 'body') return 'body';
  if (value === 'delivery-id') return value;
  throw misuseError(
    `${CALLER}: deduplicateBy must be 'body' (the default) or 'delivery-id'; got ${describeValue(value)}`,
  );
}

function reportToConsole(error: unknown, info: WebhookErrorInfo): void {
  console.error(
    `${MESSAGE_PREFIX} ${info.outcome}: delivery ${info.deliveryId ?? '(no id)'} (${info.event ?? 'no event'}) was answered 500 and will be retried.`,
    error,
  );
}
