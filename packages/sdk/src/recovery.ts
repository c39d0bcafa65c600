// Recovery without duplicates: after a failure after which the service may have acted (a time-out,
// a dropped connection, a 5xx), a create or a disposition looks for what it may have recorded
// before it is sent again, and a webhook creation removes the endpoint whose secret it never saw.
// The transport calls these look-ups between attempts (see `createTransport`).
import type { DispositionCreate, Receipt, ReceiptCreate, WebhookEndpoint, WebhookEndpointCreate } from '@fflkit/types';
import { LogbookError } from './errors';
import type { Recover } from './transport';

/**
 * The look-up after a failed `POST /receipts`: a receipt of the book with the serial number and
 * every field sent, on hand and without a disposition, is what the attempt recorded (the newest,
 * should there be several). One that stood in the book before the call would be that same
 * firearm recorded twice, which is what recovery prevents, so it is returned too.
 */
export function findCreated(body: ReceiptCreate, receipts: () => AsyncIterable<Receipt>): Recover {
  const query = new URLSearchParams({ serial_number: body.serial_number.trim(), book: body.book.trim() });
  return lookUp(`GET /receipts?${query}`, async () => {
    let found: Receipt | undefined;
    for await (const receipt of receipts()) {
      if (receipt.status === 'on_hand' && receipt.disposition === null && holds(receipt, body)) found = receipt;
    }
    return found;
  });
}

/** The look-up after a failed disposition: the receipt is disposed, with the disposition sent. */
export function findDisposed(id: number, body: DispositionCreate, receipt: () => Promise<Receipt>): Recover {
  return lookUp(`GET /receipts/${id}`, async () => {
    const current = await receipt();
    return current.status === 'disposed' && holds(current.disposition, body) ? current : undefined;
  });
}

/**
 * The look-up after a failed `POST /webhooks`: every endpoint with the URL and events sent that
 * was not among `before` (the endpoints listed before the first attempt) was made by an attempt
 * whose answer, and secret, was lost: it is deleted, and the creation is sent again.
 */
export function removeUnseen(
  body: WebhookEndpointCreate,
  before: WebhookEndpoint[],
  list: () => Promise<WebhookEndpoint[]>,
  remove: (id: number) => Promise<void>,
): Recover {
  const events = String([...body.events].sort());
  return lookUp('GET /webhooks, then DELETE of each endpoint a lost attempt made', async () => {
    for (const endpoint of await list()) {
      if (
        endpoint.url === body.url.trim() &&
        String([...endpoint.events].sort()) === events &&
        !before.some(({ id }) => id === endpoint.id)
      ) {
        await remove(endpoint.id);
      }
    }
    return undefined;
  });
}

/** What to do when recovery cannot read: a 403 is a token without `read`. */
export function readHint(error: unknown): string {
  return (error as { status?: number }).status === 403
    ? '; recovery needs the read permission: use a key with read, or pass recover: false'
    : '';
}

/**
 * Says, in the error of the read a call makes before it is sent (`webhooks.create`'s listing),
 * that nothing was sent.
 */
export function nothingSent(operation: string) {
  return (error: unknown): never => {
    if (error instanceof LogbookError) {
      // The error was just built and its stack not yet read, so the stack shows the new message.
      error.message += ` [${operation}: nothing was sent${readHint(error)}]`;
    }
    throw error;
  };
}

// A look-up whose find resolves the call with what it found (as the answer of the POST would
// have, `{ data }`), or sends it again when it found nothing; `lookup` says what it reads, for
// the OutcomeUnknownError of a look-up that fails.
function lookUp(lookup: string, find: () => Promise<unknown>): Recover {
  const recover = () => find().then((found) => (found ? Response.json({ data: found }) : undefined));
  return Object.assign(recover, { lookup });
}

// Whether `record` holds every field of `sent` as the service stores it: strings trimmed, `null`
// for a field not given. Fields the record does not have (which the service ignores) are skipped.
function holds(record: object | null, sent: object): boolean {
  return (
    record !== null &&
    Object.entries(sent).every(
      ([field, value]) =>
        !(field in record) ||
        (record as Record<string, unknown>)[field] === (typeof value === 'string' ? value.trim() : (value ?? null)),
    )
  );
}
