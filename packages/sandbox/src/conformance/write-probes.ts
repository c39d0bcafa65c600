import type { Receipt, WebhookEndpoint } from '@fflkit/types';
import { DeliveryChecker } from '../contract-check/delivery-check';
import type { ProbeClient, ProbeExchange } from './probe-client';
import type { ProbeReceiver, ReceivedDelivery } from './probe-receiver';
import { invalidField, probeReceipt } from './read-probes';
import type { Verdicts } from './verdicts';

// The probes of a conformance run that write, meant for a token of the service's own sandbox:
// receipts named for the run (their serial numbers and their supplier carry its name) in the
// book given, made, read at once, corrected, disposed of and deleted; refused bodies that must
// change nothing; and a webhook endpoint to a receiver of the run, whose deliveries are checked.
// The run deletes what the API lets it delete: its receipts (soft-deleted, they keep their audit
// trail and their record numbers) and its endpoint.

/** What the write probes need besides the client and the verdicts. */
export interface WriteProbeRun {
  readonly client: ProbeClient;
  readonly verdicts: Verdicts;
  /** The run's name, for the records it makes. */
  readonly run: string;
  /** The book the run's receipts go into. */
  readonly book: string;
  /** Today as the service's UTC date: `YYYY-MM-DD`. */
  readonly today: string;
  /** Whether the read probes found no receipt to look at, so that one the run makes stands in. */
  readonly sampleMissing: boolean;
  /** A receiver the run subscribes, or `undefined` when it runs none. */
  readonly receiver: ProbeReceiver | undefined;
  /** Waits `ms` milliseconds (between reads of a receipt not yet visible). */
  readonly wait: (ms: number) => Promise<void>;
  /** How long deliveries are awaited. */
  readonly deliveryTimeoutMs: number;
  /** What the run could not do or undo, with why. */
  readonly notes: string[];
}

/** How often, and how far apart, a receipt not yet visible is read again. */
const VISIBILITY_READS = 10;
const VISIBILITY_PAUSE_MS = 500;

/** Runs the probes that write, and deletes what they made. */
export async function runWriteProbes(run: WriteProbeRun): Promise<void> {
  const { client, verdicts } = run;
  const made: Receipt[] = [];
  const removed = new Set<number>();
  let endpoint: { id: number; secret: string } | undefined;
  try {
    endpoint = await probeWebhookCreation(run);
    const unknownBook = await client.send('POST', '/receipts', {
      body: receiptBody(run, 'X', { book: `FFLKit conformance ${run.run}` }),
    });
    verdicts.expect(
      'receipts.create-rules',
      unknownBook,
      invalidField(unknownBook, 'book'),
      '422 with errors.book: no book has that name',
    );
    keepForRemoval(unknownBook, made);

    // Padded text, a field the contract does not name, today's date: all taken as the contract says.
    const first = await client.send('POST', '/receipts', {
      body: { ...receiptBody(run, 'A'), model: '  Probe A  ', fflkit_conformance: run.run },
    });
    const a = createdReceipt(first);
    if (a === undefined) {
      verdicts.expect('receipts.create-result', first, false, '201 with the new receipt');
      return;
    }
    made.push(a);
    verdicts.expect('receipts.create-result', first, a.status === 'on_hand', '201 with an on_hand receipt');
    verdicts.expect('receipts.status', first, a.status === 'on_hand', 'status on_hand');
    verdicts.expect('conventions.trimmed-strings', first, a.model === 'Probe A', 'model "Probe A", trimmed');
    verdicts.clean(
      first,
      201,
      ['conventions.unknown-fields-ignored', 'conventions.today-utc', 'receipts.resource'],
      '201 with the receipt of the contract, the unknown field left out',
    );
    await probeVisibility(run, a);
    if (run.sampleMissing) await probeReceipt(client, verdicts, a);

    const second = await client.send('POST', '/receipts', { body: receiptBody(run, 'B') });
    const b = createdReceipt(second);
    if (b !== undefined) {
      made.push(b);
      verdicts.expect(
        'receipts.record-number',
        second,
        b.record === a.record + 1,
        `record ${a.record + 1}, the next of the book`,
      );
      verdicts.expect(
        'receipts.create-result',
        second,
        b.record === a.record + 1,
        `record ${a.record + 1}, the next of the book`,
      );
    }
    await probeRefusedBodies(run, a, made);
    await probeUpdates(run, a);
    if (b !== undefined) {
      await probeDisposition(run, a, b);
      await probeDeletion(run, b, made, removed);
    }
    // Every receipt of the run is deleted before its deliveries are judged: the deletions are events too.
    await removeReceipts(run, made, removed);
    if (endpoint !== undefined) await probeDeliveries(run, endpoint.secret, made);
  } finally {
    await removeReceipts(run, made, removed);
    if (endpoint !== undefined) {
      const deleted = await client.send('DELETE', `/webhooks/${endpoint.id}`);
      verdicts.expect('webhooks.delete', deleted, deleted.status === 204, '204');
      if (deleted.status !== 204)
        run.notes.push(`the webhook endpoint ${endpoint.id}: DELETE answered ${deleted.status}`);
    }
  }
}

/** Deletes the run's receipts not deleted yet (soft deletes: their audit trails stay). */
async function removeReceipts(run: WriteProbeRun, made: readonly Receipt[], removed: Set<number>): Promise<void> {
  for (const receipt of made) {
    if (removed.has(receipt.id)) continue;
    removed.add(receipt.id);
    const answer = await run.client.send('DELETE', `/receipts/${receipt.id}`);
    if (answer.status !== 204 && answer.status !== 404) {
      run.notes.push(`the receipt ${receipt.id} (${receipt.serial_number}): DELETE answered ${answer.status}`);
    }
  }
}

/** POST /webhooks: refused bodies, then the run's endpoint (to its receiver, when it runs one). */
async function probeWebhookCreation(run: WriteProbeRun): Promise<{ id: number; secret: string } | undefined> {
  const { client, verdicts } = run;
  const url = run.receiver?.url ?? `https://fflkit-conformance.invalid/${run.run}`;
  const badUrl = await client.send('POST', '/webhooks', { body: { url: 'ftp://example.com/hooks', events: ['*'] } });
  verdicts.expect('webhooks.create-rules', badUrl, invalidField(badUrl, 'url'), '422 with errors.url');
  const noEvents = await client.send('POST', '/webhooks', { body: { url, events: [] } });
  verdicts.expect('webhooks.create-rules', noEvents, invalidField(noEvents, 'events'), '422 with errors.events');
  const created = await client.send('POST', '/webhooks', { body: { url, events: ['*'] } });
  const body = created.body as { data?: WebhookEndpoint; secret?: string } | undefined;
  if (created.status !== 201 || body?.data === undefined || typeof body.secret !== 'string') {
    verdicts.expect('webhooks.create-result', created, false, '201 with the endpoint and its secret');
    return undefined;
  }
  verdicts.expect('webhooks.create-result', created, body.data.enabled === true, '201 with the endpoint, enabled');
  verdicts.expect(
    'webhooks.secret-length',
    created,
    /^whsec_.{32,}$/.test(body.secret),
    'whsec_ and at least 32 characters',
  );
  verdicts.clean(created, 201, ['webhooks.endpoint-fields'], 'the endpoint of the contract');
  return { id: body.data.id, secret: body.secret };
}

/** The new receipt is visible at once; otherwise how long it takes is measured. */
async function probeVisibility(run: WriteProbeRun, receipt: Receipt): Promise<void> {
  const { client, verdicts } = run;
  const read = await client.send('GET', `/receipts/${receipt.id}`);
  if (read.status === 200) {
    verdicts.expect('receipts.visible-at-once', read, true, '200 right after the 201');
    const since = new Date(Date.parse(receipt.updated_at) - 1_000).toISOString();
    const listed = await client.send('GET', `/receipts?since=${encodeURIComponent(since)}&per_page=200`);
    const shown = (listed.body as { data?: Receipt[] } | undefined)?.data?.some((r) => r.id === receipt.id) === true;
    verdicts.expect(
      'receipts.visible-at-once',
      listed,
      shown,
      `a page with receipt ${receipt.id}, right after its 201`,
    );
    return;
  }
  let reads = 1;
  let last = read;
  while (last.status !== 200 && reads < VISIBILITY_READS) {
    await run.wait(VISIBILITY_PAUSE_MS);
    last = await client.send('GET', `/receipts/${receipt.id}`);
    reads += 1;
  }
  const after =
    last.status === 200
      ? `it was visible after ${reads - 1} more ${reads === 2 ? 'read' : 'reads'}, about ${(reads - 1) * VISIBILITY_PAUSE_MS} ms later`
      : `it was still not visible after ${reads} reads over ${((reads - 1) * VISIBILITY_PAUSE_MS) / 1000} s`;
  verdicts.expect('receipts.visible-at-once', read, false, `200 right after the 201; ${after}`);
}

/** Bodies the contract refuses: each must be 422 on its field and make nothing. */
async function probeRefusedBodies(run: WriteProbeRun, a: Receipt, made: Receipt[]): Promise<void> {
  const { client, verdicts } = run;
  const malformed = await client.send('POST', '/receipts', { body: '{' });
  verdicts.expect('errors.malformed-json', malformed, invalidField(malformed, 'body'), '422 with errors.body');
  const { ffl_license: _, ...withoutLicense } = receiptBody(run, 'N');
  const unsourced = await client.send('POST', '/receipts', { body: withoutLicense });
  verdicts.expect(
    'receipts.create-rules',
    unsourced,
    invalidField(unsourced, 'address'),
    '422 with errors.address: neither a license nor an address',
  );
  keepForRemoval(unsourced, made);
  // A number that would be stored as another value is refused as the body is read.
  const inexact = JSON.stringify(receiptBody(run, 'E')).replace(/"purchase_amount":[^,}]+/, '"purchase_amount":1e-400');
  const rounded = await client.send('POST', '/receipts', { body: inexact });
  verdicts.expect(
    'conventions.exact-numbers',
    rounded,
    invalidField(rounded, 'purchase_amount'),
    '422 with errors.purchase_amount',
  );
  keepForRemoval(rounded, made);
  // One body, four fields the contract refuses: each must be named.
  const fields = {
    state: 'ZZ',
    zip: '1234',
    ffl_license: '12345',
    address: '1 Probe Way',
    city: 'Probe',
    receipt_date: '0025-03-14',
  };
  const refused = await client.send('POST', '/receipts', { body: { ...receiptBody(run, 'F'), ...fields } });
  for (const [id, field] of [
    ['input.state-code', 'state'],
    ['input.zip-code', 'zip'],
    ['input.license-number', 'ffl_license'],
    ['conventions.dates-from-1900', 'receipt_date'],
  ] as const) {
    verdicts.expect(id, refused, invalidField(refused, field), `422 with errors.${field}`);
  }
  keepForRemoval(refused, made);
  const today = a.created_at.slice(0, 10);
  const later = new Date(Date.parse(`${today}T00:00:00Z`) + 2 * 86_400_000).toISOString().slice(0, 10);
  const future = await client.send('POST', '/receipts', { body: { ...receiptBody(run, 'T'), receipt_date: later } });
  verdicts.expect(
    'conventions.today-utc',
    future,
    invalidField(future, 'receipt_date'),
    `422 with errors.receipt_date: ${later} is after today, ${today} (UTC)`,
  );
  keepForRemoval(future, made);
}

/** PUT: a change, the same values again, a change of book, a required field cleared. */
async function probeUpdates(run: WriteProbeRun, a: Receipt): Promise<void> {
  const { client, verdicts } = run;
  const changed = await client.send('PUT', `/receipts/${a.id}`, { body: { purchase_amount: 123.45 } });
  const after = (changed.body as { data?: Receipt } | undefined)?.data;
  verdicts.expect(
    'receipts.update-result',
    changed,
    changed.status === 200 && after?.purchase_amount === 123.45,
    '200 with purchase_amount 123.45',
  );
  const same = await client.send('PUT', `/receipts/${a.id}`, { body: { purchase_amount: 123.45 } });
  const unchanged = (same.body as { data?: Receipt } | undefined)?.data;
  verdicts.expect(
    'receipts.update-result',
    same,
    same.status === 200 && after !== undefined && unchanged?.updated_at === after.updated_at,
    `200 with updated_at ${after?.updated_at ?? 'as it was'}, unchanged by a PUT that changes nothing`,
  );
  const book = await client.send('PUT', `/receipts/${a.id}`, { body: { book: `${run.book} (another)` } });
  verdicts.expect(
    'receipts.update-rules',
    book,
    invalidField(book, 'book'),
    '422 with errors.book: the book cannot change',
  );
  const cleared = await client.send('PUT', `/receipts/${a.id}`, { body: { serial_number: null } });
  verdicts.expect(
    'receipts.update-rules',
    cleared,
    invalidField(cleared, 'serial_number'),
    '422 with errors.serial_number: it is required',
  );
}

/** Dispose: the disposed receipt, twice refused, refused bodies, and a correction afterwards. */
async function probeDisposition(run: WriteProbeRun, a: Receipt, b: Receipt): Promise<void> {
  const { client, verdicts } = run;
  const disposition = {
    disposition_date: a.receipt_date,
    disposed_to: 'FFLKit Conformance Buyer',
    form_4473_serial: `FFLKIT-${run.run}`,
  };
  const disposed = await client.send('POST', `/receipts/${a.id}/dispose`, { body: disposition });
  const receipt = (disposed.body as { data?: Receipt } | undefined)?.data;
  verdicts.expect(
    'receipts.dispose-result',
    disposed,
    disposed.status === 200 && receipt?.status === 'disposed',
    '200 with the receipt, disposed',
  );
  verdicts.expect('receipts.status', disposed, receipt?.status === 'disposed', 'status disposed');
  verdicts.clean(disposed, 200, ['receipts.disposition-fields'], 'the disposition of the contract');
  const again = await client.send('POST', `/receipts/${a.id}/dispose`, {
    body: { ...disposition, form_4473_serial: `FFLKIT-${run.run}-2` },
  });
  verdicts.expect(
    'receipts.dispose-result',
    again,
    invalidField(again, 'status'),
    '422 with errors.status: it is disposed of already',
  );
  const { disposed_to: _, ...nobody } = disposition;
  const unnamed = await client.send('POST', `/receipts/${b.id}/dispose`, { body: nobody });
  verdicts.expect(
    'receipts.dispose-rules',
    unnamed,
    invalidField(unnamed, 'disposed_to'),
    '422 with errors.disposed_to',
  );
  const early = await client.send('POST', `/receipts/${b.id}/dispose`, {
    body: { ...disposition, disposition_date: '1999-12-31' },
  });
  verdicts.expect(
    'receipts.dispose-rules',
    early,
    invalidField(early, 'disposition_date'),
    '422 with errors.disposition_date: before the receipt date',
  );
  const corrected = await client.send('PUT', `/receipts/${a.id}`, { body: { model: 'Probe A corrected' } });
  verdicts.expect(
    'receipts.update-result',
    corrected,
    corrected.status === 200,
    '200: a disposed receipt can still be corrected',
  );
}

/** DELETE: 204, then 404 for every call, left out of the lists, its number never reused. */
async function probeDeletion(run: WriteProbeRun, b: Receipt, made: Receipt[], removed: Set<number>): Promise<void> {
  const { client, verdicts } = run;
  removed.add(b.id);
  const deleted = await client.send('DELETE', `/receipts/${b.id}`);
  verdicts.expect('receipts.delete', deleted, deleted.status === 204, '204');
  if (deleted.status !== 204) return;
  const read = await client.send('GET', `/receipts/${b.id}`);
  verdicts.expect('receipts.delete', read, read.status === 404, '404: the receipt is deleted');
  verdicts.expect('errors.not-found-scope', read, read.status === 404, '404: the receipt is deleted');
  const again = await client.send('DELETE', `/receipts/${b.id}`);
  verdicts.expect('receipts.delete', again, again.status === 404, '404: the receipt is deleted already');
  const listed = await client.send('GET', `/receipts?serial_number=${encodeURIComponent(b.serial_number)}`);
  const left = (listed.body as { data?: Receipt[] } | undefined)?.data;
  verdicts.expect(
    'receipts.list-filters',
    listed,
    listed.status === 200 && left?.length === 0,
    'an empty page: the receipt is deleted',
  );
  const next = await client.send('POST', '/receipts', { body: receiptBody(run, 'C') });
  const c = createdReceipt(next);
  if (c === undefined) return;
  made.push(c);
  verdicts.expect(
    'receipts.record-number',
    next,
    c.record === b.record + 1,
    `record ${b.record + 1}: the deleted receipt's ${b.record} is not reused`,
  );
}

/** The deliveries the run's changes brought to its receiver, when the service reaches it. */
async function probeDeliveries(run: WriteProbeRun, secret: string, made: readonly Receipt[]): Promise<void> {
  const { verdicts, receiver } = run;
  const ids = new Set(made.map((receipt) => receipt.id));
  const ours = (deliveries: readonly ReceivedDelivery[]) =>
    deliveries.filter((delivery) => ids.has(eventOf(delivery)?.data?.id ?? -1) || eventOf(delivery)?.event === 'ping');
  // The creation of the first receipt, at least; then every event of the run, or the time out.
  const reached =
    receiver !== undefined && (await receiver.until((all) => ours(all).length > 0, run.deliveryTimeoutMs));
  const delivered = [
    'webhooks.signature-key',
    'webhooks.delivery-id',
    'webhooks.user-agent',
    'webhooks.full-receipt-data',
    'webhooks.deleted-data',
    'webhooks.no-empty-update',
  ];
  if (!reached) {
    for (const id of delivered) {
      verdicts.unprobed(
        id,
        `no delivery reached the run's receiver ${receiver?.url ?? ''} within ${run.deliveryTimeoutMs / 1000} s: a service that is not on this machine cannot reach it`,
      );
    }
    return;
  }
  // The receipt.deleted of the last receipt made ends the run's events (it is deleted last).
  const last = made[made.length - 1]!.id;
  await receiver.until(
    (all) => all.some((d) => eventOf(d)?.event === 'receipt.deleted' && eventOf(d)?.data?.id === last),
    run.deliveryTimeoutMs,
  );
  const checker = new DeliveryChecker({ secret });
  let updates = 0;
  for (const delivery of ours(receiver.received)) {
    const event = eventOf(delivery);
    const exchange: ProbeExchange = {
      request: `delivery ${event?.event ?? 'of no event'} to the run's receiver`,
      status: 0,
      headers: Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name, String(value)])),
      text: delivery.body.toString('utf8'),
      body: event,
      findings: checker.check({ headers: delivery.headers, body: delivery.body }),
    };
    verdicts.observe(exchange);
    verdicts.clean(
      exchange,
      0,
      ['webhooks.signature-key', 'webhooks.delivery-id', 'webhooks.user-agent'],
      'a signed delivery of the contract',
    );
    if (event?.event === 'receipt.deleted')
      verdicts.clean(exchange, 0, ['webhooks.deleted-data'], 'the deleted receipt and its deleted_at');
    else verdicts.clean(exchange, 0, ['webhooks.full-receipt-data', 'receipts.resource'], 'the full receipt');
    if (event?.event === 'receipt.updated' && event.data?.id === made[0]!.id) updates += 1;
  }
  // The first receipt was changed once, left as it was once, and corrected once after its disposition.
  const updated = ours(receiver.received).find((delivery) => eventOf(delivery)?.event === 'receipt.updated');
  if (updated !== undefined) {
    const exchange: ProbeExchange = {
      request: "the run's receipt.updated deliveries",
      status: 0,
      headers: {},
      text: `${updates} receipt.updated deliveries for receipt ${made[0]!.id}`,
      body: undefined,
      findings: [],
    };
    verdicts.expect(
      'webhooks.no-empty-update',
      exchange,
      updates === 2,
      'two receipt.updated: one for the change, one for the correction, none for the PUT that changed nothing',
    );
  }
}

function eventOf(delivery: ReceivedDelivery): { event?: string; data?: { id?: number } } | undefined {
  try {
    return JSON.parse(delivery.body.toString('utf8')) as { event?: string; data?: { id?: number } };
  } catch {
    return undefined;
  }
}

/** A receipt the service made of a body it should have refused is deleted with the others. */
function keepForRemoval(exchange: ProbeExchange, made: Receipt[]): void {
  const receipt = createdReceipt(exchange);
  if (receipt !== undefined) made.push(receipt);
}

function createdReceipt(exchange: ProbeExchange): Receipt | undefined {
  const receipt = (exchange.body as { data?: Receipt } | undefined)?.data;
  return exchange.status === 201 && typeof receipt?.id === 'number' ? receipt : undefined;
}

/** A valid receipt of the run, `name` telling the run's receipts apart. */
function receiptBody(
  run: WriteProbeRun,
  name: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    book: run.book,
    serial_number: `FFLKIT-CONF-${run.run}-${name}`,
    manufacturer: 'FFLKit Conformance Arms',
    importer: 'FFLKit Conformance Imports',
    country_of_origin: 'United States',
    model: `Probe ${name}`,
    type: 'Pistol',
    caliber: '9mm Luger',
    receipt_date: run.today,
    purchase_amount: 100,
    received_from: `FFLKit conformance run ${run.run}`,
    ffl_license: '9-99-999-01-6A-00001',
    ...overrides,
  };
}
