import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { choiceGoverning, choiceId } from './choices';
import { CONTRACT_DELIVERIES } from './contract';
import { type HeaderMap, header } from './exchange-check';
import { SchemaChecker } from './schema-check';
import { describeValue, type ViolationFinding } from './violations';

// A webhook delivery, as a receiver gets it, checked against the contract: the headers its event
// declares (and no other `X-SVC-` header), the signature when the endpoint's secret is known,
// the body against the event's schema, and, for a delivery seen before under the same
// `X-SVC-Delivery`, the very same body.

/** A delivery as it arrived: its headers (names in lower case) and its body's bytes. */
export interface Delivery {
  readonly headers: HeaderMap;
  readonly body: Uint8Array;
}

const SIGNATURE_KEY = choiceId('webhooks.signature-key');
const DELIVERY_ID = choiceId('webhooks.delivery-id');

/** The deliveries whose body hash is kept, to compare a retry with, at most. */
const MAX_REMEMBERED = 10_000;
const SERVICE_HEADER = /^x-svc-/;

/** A check of deliveries against the contract. */
export class DeliveryChecker {
  readonly #schemas: SchemaChecker;
  readonly #secret: string | undefined;
  readonly #bodies = new Map<string, string>();

  /** `secret`, the endpoint's signing secret (`whsec_...`), to verify signatures with. */
  constructor(options: { readonly secret?: string | undefined; readonly schemas?: SchemaChecker | undefined } = {}) {
    this.#schemas = options.schemas ?? new SchemaChecker();
    this.#secret = options.secret;
  }

  /** Compiles the schemas of every event's delivery. */
  prepare(): void {
    this.#schemas.prepare(
      [...CONTRACT_DELIVERIES.values()].flatMap((delivery) => [
        delivery.body,
        ...delivery.headers.map((h) => h.schema),
      ]),
    );
  }

  /** What of `delivery` departs from the contract. */
  check(delivery: Delivery): ViolationFinding[] {
    const event = header(delivery.headers, 'x-svc-event');
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(delivery.body).toString('utf8'));
    } catch {
      body = undefined;
    }
    const named = event ?? (body as { event?: unknown } | undefined)?.event;
    const contract = typeof named === 'string' ? CONTRACT_DELIVERIES.get(named) : undefined;
    const at = { method: 'POST', path: `webhook:${typeof named === 'string' ? named : 'unknown'}`, status: null };
    if (contract === undefined) {
      return [
        {
          ...at,
          pointer: '/headers/x-svc-event',
          choice: null,
          expected: `one of ${[...CONTRACT_DELIVERIES.keys()].join(', ')}`,
          seen: describeValue(named),
        },
      ];
    }
    const findings: ViolationFinding[] = [];
    const declaredNames = new Set(contract.headers.map((declared) => declared.name.toLowerCase()));
    for (const declared of contract.headers) {
      const name = declared.name.toLowerCase();
      const value = header(delivery.headers, name);
      if (value === undefined) {
        findings.push({
          ...at,
          pointer: `/headers/${name}`,
          choice: choiceGoverning(declared.location),
          expected: 'present',
          seen: 'absent',
        });
        continue;
      }
      for (const problem of this.#schemas.check(declared.schema, value)) {
        findings.push({
          ...at,
          pointer: `/headers/${name}`,
          choice: choiceGoverning(problem.location),
          expected: problem.expected,
          seen: problem.seen,
        });
      }
    }
    for (const name of Object.keys(delivery.headers)) {
      if (SERVICE_HEADER.test(name) && !declaredNames.has(name)) {
        findings.push({
          ...at,
          pointer: `/headers/${name}`,
          choice: null,
          expected: 'absent: the contract names no such header',
          seen: describeValue(header(delivery.headers, name)),
        });
      }
    }
    const type = header(delivery.headers, 'content-type');
    if (type === undefined || !/^application\/json\s*(?:;|$)/i.test(type)) {
      findings.push({
        ...at,
        pointer: '/headers/content-type',
        choice: null,
        expected: 'application/json',
        seen: type ?? 'absent',
      });
    }
    const signature = header(delivery.headers, 'x-svc-signature');
    if (
      this.#secret !== undefined &&
      signature !== undefined &&
      !signatureMatches(this.#secret, delivery.body, signature)
    ) {
      findings.push({
        ...at,
        pointer: '/headers/x-svc-signature',
        choice: SIGNATURE_KEY,
        expected: "sha256= and the HMAC-SHA256 of the body's bytes keyed with the secret given",
        seen: 'another signature',
      });
    }
    if (body === undefined) {
      findings.push({
        ...at,
        pointer: '/body',
        choice: null,
        expected: 'a JSON body',
        seen: describeValue(Buffer.from(delivery.body).toString('utf8')),
      });
      return findings;
    }
    for (const problem of this.#schemas.check(contract.body, body)) {
      findings.push({
        ...at,
        pointer: `/body${problem.pointer}`,
        choice: choiceGoverning(problem.location),
        expected: problem.expected,
        seen: problem.seen,
      });
    }
    const sent = (body as { event?: unknown }).event;
    if (event !== undefined && sent !== event) {
      findings.push({
        ...at,
        pointer: '/body/event',
        choice: null,
        expected: `${JSON.stringify(event)}, as X-SVC-Event says`,
        seen: describeValue(sent),
      });
    }
    const id = header(delivery.headers, 'x-svc-delivery');
    if (id !== undefined) {
      const hash = createHash('sha256').update(delivery.body).digest('base64');
      const before = this.#bodies.get(id);
      if (before !== undefined && before !== hash) {
        findings.push({
          ...at,
          pointer: '/body',
          choice: DELIVERY_ID,
          expected: `the same bytes as the earlier delivery ${id}`,
          seen: 'another body under the same X-SVC-Delivery',
        });
      }
      if (before === undefined) {
        if (this.#bodies.size >= MAX_REMEMBERED) this.#bodies.delete(this.#bodies.keys().next().value!);
        this.#bodies.set(id, hash);
      }
    }
    return findings;
  }
}

function signatureMatches(secret: string, body: Uint8Array, signature: string): boolean {
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`,
  );
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
