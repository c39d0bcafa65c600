import { randomInt, randomUUID } from 'node:crypto';
import { type DeliveryOutcome, type DeliveryRequest, signDelivery } from '@fflkit/sandbox-core';
import { HEADERS, SECRET_PREFIX, WEBHOOK_TIMEOUT_SECONDS, WEBHOOK_USER_AGENT } from '@fflkit/types';
import { createNodeDeliverySender } from '../deliveries/node-delivery-sender';
import { type CheckEvent, checkReceipt, largeReceiptEvent, pingEvent, receiptEvent } from './check-events';
import { misuseError } from '../support/errors';

// The receiver check: what a webhook receiver must handle, sent to it over HTTP as the sandbox
// sends deliveries, and judged only by what can be seen from outside: each answer's status and
// how long it took. What it cannot see (whether a duplicate was processed twice, whether an old
// event overwrote a newer one) it says it assumes.

/** Which check: each sends one or two deliveries. */
export type ReceiverCheckName =
  | 'ping'
  | 'forged_signature'
  | 'missing_signature'
  | 'duplicate_delivery'
  | 'out_of_order'
  | 'large_body';

/** How a check went; `skipped` when the receiver could not be reached at all. */
export type ReceiverCheckOutcome = 'pass' | 'warn' | 'fail' | 'skipped';

/** One request a check sent, and how the receiver answered it. */
export interface ReceiverCheckRequest {
  readonly event: string;
  /** `X-SVC-Delivery`. */
  readonly deliveryId: string;
  /** Which `X-SVC-Signature` it carried: the right one, one made with another secret, or none. */
  readonly signature: 'valid' | 'forged' | 'missing';
  /** The size of its body, in bytes. */
  readonly bytes: number;
  /** The receiver's status; `null` when no answer came. */
  readonly status: number | null;
  /** Why no answer came (time-out, refused connection); `null` when one came. */
  readonly error: string | null;
  /** From sending to the answer's status, or to the failure. */
  readonly durationMs: number;
}

/** One check of the report. */
export interface ReceiverCheckResult {
  readonly name: ReceiverCheckName;
  /** A few words for the report's line, such as `forged signature`. */
  readonly title: string;
  readonly outcome: ReceiverCheckOutcome;
  readonly requests: readonly ReceiverCheckRequest[];
  /** Why it failed, warned or was skipped; `null` when it passed. */
  readonly reason: string | null;
  /** What to change in the receiver; `null` when nothing needs to. */
  readonly fix: string | null;
  /** What the check assumes because it cannot see it from outside; `null` when nothing. */
  readonly assumes: string | null;
}

/** What {@link checkReceiver} found. */
export interface ReceiverCheckReport {
  readonly url: string;
  /** Whether no check failed (warnings and skips aside, a skip comes only after a failure). */
  readonly ok: boolean;
  /** The time-out each answer was held to, and the time past which it is warned about. */
  readonly timeoutMs: number;
  readonly warnAfterMs: number;
  readonly checks: readonly ReceiverCheckResult[];
}

/** Options of {@link checkReceiver}. */
export interface CheckReceiverOptions {
  /** The receiver's URL, as an endpoint is registered with it: `http://127.0.0.1:3000/webhooks`. */
  readonly url: string;
  /** The endpoint's signing secret the receiver verifies with, `whsec_...`, prefix included. */
  readonly secret: string;
  /** How long an answer may take: 5 s, as the service, unless told otherwise. */
  readonly timeoutMs?: number | undefined;
  /** Past how long an answer is warned about: 1 s unless told otherwise. */
  readonly warnAfterMs?: number | undefined;
  /** The clock that times the answers and dates the events, in epoch milliseconds; `Date.now` by default. */
  readonly now?: (() => number) | undefined;
}

const DEFAULT_WARN_AFTER_MS = 1000;
const CALLER = 'checkReceiver()';

/** Which signature a request carries. */
type Signing = ReceiverCheckRequest['signature'];

/** What a check sends, and how it judges the answers (the time each took is judged apart). */
interface CheckPlan {
  readonly name: ReceiverCheckName;
  readonly title: string;
  readonly sends: readonly { readonly event: CheckEvent; readonly signing: Signing; readonly deliveryId: string }[];
  readonly judge: (requests: readonly ReceiverCheckRequest[]) => Verdict;
}

/** A check's outcome as its answers' statuses decide it. */
type Verdict = Pick<ReceiverCheckResult, 'outcome' | 'reason' | 'fix' | 'assumes'>;

/**
 * Checks a webhook receiver from outside, as the service would reach it: sends it a signed
 * `ping`; a delivery with a forged `X-SVC-Signature` (it must answer 401) and one without it
 * (4xx, 401 expected); the same delivery twice (both 2xx); a receipt's `receipt.deleted` before
 * its `receipt.created` (both 2xx); and a body of more than 256 KiB (2xx). Every answer is held
 * to the 5 s time-out (a warning past 1 s). The deliveries are about receipts that exist
 * nowhere (serial numbers `CHECK-RECEIVER-...`): point it at a receiver of a test endpoint.
 * When the ping gets no answer at all, the other checks are skipped. Never rejects for what the
 * receiver does; wrong options throw a `TypeError`.
 *
 * @example
 * ```ts
 * import { checkReceiver } from '@fflkit/sandbox';
 *
 * const report = await checkReceiver({ url: 'http://127.0.0.1:3000/webhooks', secret: 'whsec_...' });
 * report.ok; // false when a check failed
 * report.checks.map((check) => `${check.outcome} ${check.title}`); // ['pass signed ping', ...]
 * ```
 */
export async function checkReceiver(options: CheckReceiverOptions): Promise<ReceiverCheckReport> {
  const { url, secret, timeoutMs, warnAfterMs, now } = readOptions(options);
  const sender = createNodeDeliverySender({ timeoutMs });
  const checks: ReceiverCheckResult[] = [];
  try {
    for (const plan of planChecks(now())) {
      if (checks.length > 0 && checks[0]!.requests[0]!.status === null) {
        const reason = `Not run: the signed ping got no answer (${checks[0]!.requests[0]!.error}).`;
        checks.push({
          name: plan.name,
          title: plan.title,
          outcome: 'skipped',
          requests: [],
          reason,
          fix: null,
          assumes: null,
        });
        continue;
      }
      const requests: ReceiverCheckRequest[] = [];
      for (const send of plan.sends) {
        const request = signedRequest(url, secret, send.event, send.deliveryId, send.signing);
        const startedMs = now();
        const outcome: DeliveryOutcome = await sender.send(request);
        requests.push({
          event: send.event.event,
          deliveryId: send.deliveryId,
          signature: send.signing,
          bytes: Buffer.byteLength(request.body),
          status: 'status' in outcome ? outcome.status : null,
          error: 'error' in outcome ? outcome.error : null,
          durationMs: Math.max(0, now() - startedMs),
        });
      }
      checks.push({
        name: plan.name,
        title: plan.title,
        requests,
        ...judgeTimes(plan.judge(requests), requests, timeoutMs, warnAfterMs),
      });
    }
  } finally {
    sender.close();
  }
  return { url, ok: checks.every((check) => check.outcome !== 'fail'), timeoutMs, warnAfterMs, checks };
}

/** The options checked, with their defaults. */
interface CheckSettings {
  readonly url: string;
  readonly secret: string;
  readonly timeoutMs: number;
  readonly warnAfterMs: number;
  readonly now: () => number;
}

function readOptions(options: CheckReceiverOptions): CheckSettings {
  if (typeof options !== 'object' || options === null) throw misuseError(`${CALLER} needs { url, secret }`);
  const { url, secret } = options;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw misuseError(
      `${CALLER}: url must be the receiver's absolute http(s) URL, such as http://127.0.0.1:3000/webhooks; got ${JSON.stringify(url)}`,
    );
  }
  if (typeof secret !== 'string' || !secret.startsWith(SECRET_PREFIX) || secret.length === SECRET_PREFIX.length) {
    throw misuseError(
      `${CALLER}: secret must be the endpoint's signing secret as POST /webhooks answered it, ${SECRET_PREFIX}... with its prefix; got ${typeof secret === 'string' ? `a string starting ${JSON.stringify(secret.slice(0, 6))}` : typeof secret}`,
    );
  }
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_SECONDS * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw misuseError(`${CALLER}: timeoutMs must be a positive number of milliseconds; got ${String(timeoutMs)}`);
  const warnAfterMs = options.warnAfterMs ?? Math.min(DEFAULT_WARN_AFTER_MS, timeoutMs);
  if (!Number.isFinite(warnAfterMs) || warnAfterMs < 0 || warnAfterMs > timeoutMs) {
    throw misuseError(
      `${CALLER}: warnAfterMs must be a number of milliseconds from 0 to timeoutMs (${timeoutMs}); got ${String(warnAfterMs)}`,
    );
  }
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw misuseError(`${CALLER}: now must be a function answering epoch milliseconds`);
  return { url: parsed.href, secret, timeoutMs, warnAfterMs, now };
}

/** The signed request of a check's delivery, headers as the sandbox sends them. */
function signedRequest(
  url: string,
  secret: string,
  event: CheckEvent,
  deliveryId: string,
  signing: Signing,
): DeliveryRequest {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    [HEADERS.event]: event.event,
    [HEADERS.delivery]: deliveryId,
  };
  // A forged signature is well formed, made with a secret that is not the endpoint's.
  const key = signing === 'forged' ? `${SECRET_PREFIX}${randomUUID().replaceAll('-', '')}` : secret;
  if (signing !== 'missing') headers[HEADERS.signature] = signDelivery(key, event.body);
  return { method: 'POST', url, headers, body: event.body };
}

/** The checks, in the order they run, about receipts of random ids dated just before `nowMs`. */
function planChecks(nowMs: number): CheckPlan[] {
  const base = randomInt(100_000_000, 900_000_000);
  const receipt = (offset: number) => checkReceipt(base + offset, nowMs - 10_000);
  const created = (offset: number, atMs = nowMs - 5_000) => receiptEvent('receipt.created', receipt(offset), atMs);
  const once = (event: CheckEvent, signing: Signing = 'valid') => ({ event, signing, deliveryId: randomUUID() });
  const duplicate = once(created(2));
  return [
    {
      name: 'ping',
      title: 'signed ping',
      sends: [once(pingEvent(nowMs))],
      judge: ([ping]) => acknowledged(ping!, 'a signed ping'),
    },
    {
      name: 'forged_signature',
      title: 'forged signature',
      sends: [once(created(0), 'forged')],
      judge: ([forged]) => refusedForged(forged!),
    },
    {
      name: 'missing_signature',
      title: 'missing signature',
      sends: [once(created(1), 'missing')],
      judge: ([unsigned]) => refusedUnsigned(unsigned!),
    },
    {
      name: 'duplicate_delivery',
      title: 'same delivery twice',
      sends: [duplicate, duplicate],
      judge: ([first, second]) =>
        worst(
          acknowledged(first!, 'a signed delivery'),
          acknowledged(second!, 'the same delivery sent again (same X-SVC-Delivery, body and signature)'),
          {
            assumes:
              'Both answers were 2xx; whether the second was processed again cannot be seen from outside. The check assumes the receiver deduplicates on X-SVC-Delivery (or the body), as the interface document asks.',
          },
        ),
    },
    {
      name: 'out_of_order',
      title: 'pair out of order',
      sends: [once(receiptEvent('receipt.deleted', receipt(3), nowMs - 1_000)), once(created(3, nowMs - 2_000))],
      judge: ([deleted, late]) =>
        worst(
          acknowledged(deleted!, 'a receipt.deleted of a receipt it never heard of'),
          acknowledged(late!, 'a receipt.created older than the receipt.deleted it got before'),
          {
            assumes:
              "Both answers were 2xx; whether the older receipt.created overwrote the deletion cannot be seen from outside. The check assumes the receiver keeps the newest state by the events' timestamp.",
          },
        ),
    },
    {
      name: 'large_body',
      title: 'large body',
      sends: [once(largeReceiptEvent(base + 4, nowMs))],
      judge: ([large]) => acknowledgedLarge(large!),
    },
  ];
}

const NO_ANSWER_FIX =
  'Check that the receiver runs and listens at this URL, and that nothing in between (a firewall, a proxy, a tunnel) stops the request.';
const SLOW_FIX =
  'Answer 2xx as soon as the delivery is verified and stored, and do the work after answering (a queue, a background job).';
const PASSED: Verdict = { outcome: 'pass', reason: null, fix: null, assumes: null };

/** A delivery the receiver must acknowledge with a 2xx. */
function acknowledged(request: ReceiverCheckRequest, what: string): Verdict {
  if (request.status === null) return noAnswer(request);
  if (isSuccess(request.status)) return PASSED;
  if (request.status === 401) {
    return fail(
      `It answered 401 to ${what}.`,
      "Verify with the endpoint's secret exactly as POST /webhooks showed it (whsec_ prefix included), over the raw body bytes as they came, before any JSON parser reads them.",
    );
  }
  if (request.status >= 300 && request.status <= 399) {
    return fail(
      `It answered ${request.status} to ${what}: the service does not follow redirects.`,
      'Register the endpoint with the URL that answers itself, not one that redirects.',
    );
  }
  return fail(
    `It answered ${request.status} to ${what}; the service takes anything but a 2xx as a failure and retries.`,
    'Answer 2xx to every delivery whose signature is right, whatever its event and whatever the receiver already knows.',
  );
}

function acknowledgedLarge(request: ReceiverCheckRequest): Verdict {
  if (request.status === 413) {
    return fail(
      `It answered 413 to a delivery of ${request.bytes} bytes.`,
      'Raise the body limit of the webhook route: express.raw() and express.json() stop at 100 kB unless given a limit; @fflkit/webhooks reads up to 1 MiB (maxBodyBytes).',
    );
  }
  return acknowledged(
    request,
    `a delivery of ${request.bytes} bytes whose text escapes / and accented letters as PHP does`,
  );
}

function refusedForged(request: ReceiverCheckRequest): Verdict {
  if (request.status === null) return noAnswer(request);
  if (request.status === 401) return PASSED;
  if (isSuccess(request.status)) {
    return fail(
      `It answered ${request.status} to a delivery whose X-SVC-Signature was made with another secret: anyone can send it forged events.`,
      "Compute sha256= and the hex HMAC-SHA256 of the raw body with the endpoint's secret, compare it to X-SVC-Signature in constant time, and answer 401 on a mismatch before acting on the body.",
    );
  }
  return fail(
    `It answered ${request.status} to a forged signature; the interface document says a receiver answers 401.`,
    'Answer 401 when X-SVC-Signature does not match.',
  );
}

function refusedUnsigned(request: ReceiverCheckRequest): Verdict {
  if (request.status === null) return noAnswer(request);
  if (request.status === 401) return PASSED;
  if (request.status >= 400 && request.status <= 499) {
    return {
      outcome: 'warn',
      reason: `It answered ${request.status} to a delivery without X-SVC-Signature; 401 is what the interface document expects.`,
      fix: 'Answer 401 when X-SVC-Signature is missing, as when it does not match.',
      assumes: null,
    };
  }
  if (isSuccess(request.status)) {
    return fail(
      `It answered ${request.status} to a delivery without X-SVC-Signature: anyone can send it unsigned events.`,
      'Refuse a delivery without X-SVC-Signature with 401 before acting on the body.',
    );
  }
  return fail(
    `It answered ${request.status} to a delivery without X-SVC-Signature; 401 is expected.`,
    'Answer 401 when X-SVC-Signature is missing.',
  );
}

function noAnswer(request: ReceiverCheckRequest): Verdict {
  const timedOut = request.error?.startsWith('No answer within') === true;
  return fail(request.error ?? 'No answer.', timedOut ? SLOW_FIX : NO_ANSWER_FIX);
}

function fail(reason: string, fix: string): Verdict {
  return { outcome: 'fail', reason, fix, assumes: null };
}

/** The first failing or warning verdict; otherwise a pass with what it assumes. */
function worst(first: Verdict, second: Verdict, passed: Pick<Verdict, 'assumes'>): Verdict {
  if (first.outcome !== 'pass') return first;
  if (second.outcome !== 'pass') return second;
  return { ...PASSED, ...passed };
}

/**
 * A verdict with the time of each answer judged too: past the time-out it fails (the service
 * gives up), past the warning it warns, unless the statuses already failed it.
 */
function judgeTimes(
  verdict: Verdict,
  requests: readonly ReceiverCheckRequest[],
  timeoutMs: number,
  warnAfterMs: number,
): Verdict {
  if (verdict.outcome === 'fail') return verdict;
  const slowest = Math.max(...requests.map((request) => request.durationMs));
  if (slowest > timeoutMs) {
    return fail(
      `It took ${formatMs(slowest)} to answer; the service gives up after ${formatMs(timeoutMs)} and retries.`,
      SLOW_FIX,
    );
  }
  if (slowest > warnAfterMs && verdict.outcome === 'pass') {
    return {
      ...verdict,
      outcome: 'warn',
      reason: `It took ${formatMs(slowest)} to answer: within the ${formatMs(timeoutMs)} the service waits, but past ${formatMs(warnAfterMs)}.`,
      fix: SLOW_FIX,
    };
  }
  return verdict;
}

function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

/** A duration as the report writes it: `850 ms`, `1.5 s`, `5.001 s`. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(3).replace(/\.?0+$/, '')} s`;
}
