import type { SandboxWebhookChaos } from '@fflkit/types';
import Joi from 'joi';
import type { ChangeContext } from '../state/operation';
import type { DeliveryRecord, WebhookChaosRecord, WebhookRecord } from '../state/records';
import { findDelivery } from '../state/collections';
import { type RandomBytes, seededDraw } from '../support/crypto';
import { type FieldErrors, inputShape, readInput, readJsonObject, type RequestBody } from '../support/input';
import { formatInstant } from '../support/time';

// Delivery chaos: an endpoint's deliveries held and sent in a shuffled order, sent twice, or
// late, so that a receiver proves it is order-tolerant and idempotent. Chaos is decided when a
// delivery is made, as its first due time, its rank in a shuffled window and whether it is
// duplicated, all stored on the delivery: the engine and the schedule then make its attempts
// as they make any, and a restart keeps what was decided. Every draw comes from the settings'
// seed and the delivery's index under them, so the same settings and events give the same run.

/** How long a window of `reorder` waits for its deliveries unless told otherwise. */
const DEFAULT_HOLD_MS = 1000;
/** The longest hold and delay: an hour (a test that needs longer advances the account's clock). */
const MAX_MS = 3_600_000;
const MAX_WINDOW = 100;
const MAX_SEED = 2 ** 32 - 1;

const FIELDS = ['reorder', 'duplicate', 'delay_ms', 'seed'] as const;
const REORDER_FIELDS = ['window', 'hold_ms'] as const;

/** The body of `PUT /_sandbox/webhooks/{id}/chaos`, once valid. */
interface ChaosInput {
  reorder?: { window: number; hold_ms?: number } | null;
  duplicate?: number;
  delay_ms?: number;
  seed?: number;
}

const CHAOS_INPUT = inputShape<ChaosInput>(
  [...FIELDS],
  () =>
    Joi.object({
      reorder: Joi.object({
        window: Joi.number().strict().integer().min(2).max(MAX_WINDOW).required(),
        hold_ms: Joi.number().strict().integer().min(1).max(MAX_MS),
      }).allow(null),
      duplicate: Joi.number().strict().min(0).max(1),
      delay_ms: Joi.number().strict().integer().min(0).max(MAX_MS),
      seed: Joi.number().strict().integer().min(0).max(MAX_SEED),
    }),
  [],
);

/** A field name safe to report as a key of `errors`; any other is reported under `body`. */
const REPORTABLE_FIELD = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/**
 * Reads the settings of `PUT /_sandbox/webhooks/{id}/chaos`: every field optional and off when
 * left out, `seed` drawn at random then. A field the call does not know is 422 too, unlike the
 * other calls, so that a misspelt setting cannot leave a test running without the chaos it
 * asked for. Settings that are all off are `null`: no chaos.
 */
export function readChaosInput(body: RequestBody, randomBytes: RandomBytes): WebhookChaosRecord | null {
  const source = readJsonObject(body, FIELDS);
  const input = readInput(CHAOS_INPUT, source, (_value, errors) => {
    reportUnknown(source, FIELDS, '', errors);
    const reorder = source['reorder'];
    if (typeof reorder === 'object' && reorder !== null && !Array.isArray(reorder)) {
      reportUnknown(reorder as Record<string, unknown>, REORDER_FIELDS, 'reorder.', errors);
    }
  });
  const reorder =
    input.reorder === undefined || input.reorder === null
      ? null
      : { window: input.reorder.window, hold_ms: input.reorder.hold_ms ?? DEFAULT_HOLD_MS };
  const duplicate = input.duplicate ?? 0;
  const delay = input.delay_ms ?? 0;
  if (reorder === null && duplicate === 0 && delay === 0) return null;
  const seed = input.seed ?? randomSeed(randomBytes);
  return { reorder, duplicate, delay_ms: delay, seed, made: 0, window: null };
}

function reportUnknown(
  source: Record<string, unknown>,
  known: readonly string[],
  prefix: string,
  errors: FieldErrors,
): void {
  const names = known.map((name) => `${prefix}${name}`).join(', ');
  for (const key of Object.keys(source)) {
    if (known.includes(key)) continue;
    const field = REPORTABLE_FIELD.test(key) ? `${prefix}${key}` : 'body';
    errors.add(field, `The ${field} field is not a setting of delivery chaos: the settings are ${names}.`);
  }
}

function randomSeed(randomBytes: RandomBytes): number {
  const [a = 0, b = 0, c = 0, d = 0] = randomBytes(4);
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/** The control API's `WebhookChaos` of stored chaos: its settings, never its progress. */
export function renderChaos(chaos: WebhookChaosRecord | null): SandboxWebhookChaos | null {
  if (chaos === null) return null;
  const { reorder, duplicate, delay_ms, seed } = chaos;
  return {
    reorder: reorder === null ? null : { window: reorder.window, hold_ms: reorder.hold_ms },
    duplicate,
    delay_ms,
    seed,
  };
}

/**
 * A new delivery to an endpoint with chaos, as the chaos makes it, and the endpoint's chaos moved
 * on by one delivery. A delivery made `'at-once'` (a ping, whose answer reports its attempt) may
 * be duplicated but is neither held nor delayed. Otherwise, with `reorder`, it joins the open
 * window (or opens one): held until the window's hold ends, ranked by the window's shuffled
 * order; the delivery that fills the window releases it, and every delivery it held falls due
 * now. `delay_ms` comes on top of the due time, held or not. Call it inside the change's
 * transaction, before the delivery is put.
 */
export function applyChaos(
  context: ChangeContext,
  webhook: WebhookRecord,
  delivery: DeliveryRecord,
  timing: 'at-once' | 'scheduled' = 'scheduled',
): DeliveryRecord {
  const { chaos } = webhook;
  if (chaos === null) return delivery;
  const { store, account, nowMs } = context;
  const index = chaos.made;
  const duplicate = chaos.duplicate > 0 && unitDraw(chaos.seed, index, DUPLICATE_STREAM) < chaos.duplicate;
  let made: DeliveryRecord = duplicate ? { ...delivery, duplicate: true } : delivery;
  let window = chaos.window;
  if (timing === 'scheduled' && chaos.reorder !== null) {
    const { window: size, hold_ms: holdMs } = chaos.reorder;
    const open =
      window !== null && nowMs < window.opened_ms + holdMs ? window : { first: index, opened_ms: nowMs, ids: [] };
    const slot = open.ids.length;
    const rank = open.first + windowOrder(size, chaos.seed, open.first)[slot]!;
    if (slot + 1 < size) {
      made = { ...made, rank, next_attempt_at: formatInstant(open.opened_ms + holdMs + chaos.delay_ms) };
      window = { ...open, ids: [...open.ids, delivery.id] };
    } else {
      const due = formatInstant(nowMs + chaos.delay_ms);
      for (const id of open.ids) {
        const held = findDelivery(account, id);
        // One whose window is released may have ended meanwhile: its endpoint disabled, a redelivery succeeded.
        if (held?.state === 'pending' && held.scheduled_attempts === 0)
          store.put(account, 'deliveries', { ...held, next_attempt_at: due });
      }
      made = { ...made, rank, next_attempt_at: due };
      window = null;
    }
  } else if (timing === 'scheduled' && chaos.delay_ms > 0) {
    // From the event's timestamp, which is a millisecond later than now when events come faster.
    made = { ...made, next_attempt_at: formatInstant(Date.parse(delivery.created_at) + chaos.delay_ms) };
  }
  store.put(account, 'webhooks', { ...webhook, chaos: { ...chaos, made: index + 1, window } });
  return made;
}

// Each kind of draw has a stream of its own, so that no two kinds share a number.
const DUPLICATE_STREAM = 1;
const ORDER_STREAM = 2;

/**
 * The order of a window: the rank (from 0) of the delivery in each slot, a shuffle drawn from
 * the seed and the window's first index. A full window is never sent in the order its
 * deliveries were made: a shuffle that leaves every slot in place is drawn again.
 */
function windowOrder(size: number, seed: number, first: number): number[] {
  const next = generator(mix(seed, first, ORDER_STREAM));
  for (;;) {
    const order = Array.from({ length: size }, (_, slot) => slot);
    for (let last = size - 1; last > 0; last -= 1) {
      const pick = Math.floor(next() * (last + 1));
      [order[last], order[pick]] = [order[pick]!, order[last]!];
    }
    if (order.some((rank, slot) => rank !== slot)) return order;
  }
}

/** A number in [0, 1) drawn from the seed, an index and a stream. */
function unitDraw(seed: number, index: number, stream: number): number {
  return mix(seed, index, stream) / 2 ** 32;
}

/** A 32-bit hash of three integers, well mixed (the finaliser of MurmurHash3). */
function mix(seed: number, index: number, stream: number): number {
  let hash = (seed ^ Math.imul(index + 1, 0x9e3779b1) ^ Math.imul(stream, 0x85ebca77)) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** Numbers in [0, 1) drawn one after another from a 32-bit state. */
function generator(state: number): () => number {
  let current = state;
  return () => {
    const [next, value] = seededDraw(current);
    current = next;
    return value;
  };
}
