import type { DeletedReceipt, Receipt, ReceiptDocument, WebhookEventName } from '@fflkit/types';

// The events the receiver check sends: bodies a real sandbox would send, shaped by the contract
// (`openapi.yaml`'s webhooks), about receipts that plainly exist nowhere else (serial numbers
// `CHECK-RECEIVER-...`), so that a receiver that records them is easy to clean up.

/** One event as the check sends it: its name and the exact body text that is signed. */
export interface CheckEvent {
  readonly event: WebhookEventName;
  readonly body: string;
}

/**
 * The size the large body reaches at least. The interface document sets no limit on an event,
 * and a receipt's documents have none: this is a receipt with every text field at its longest
 * and about a hundred documents, past the 100 kB at which Express's `express.raw()` and
 * `express.json()` stop by default, and within the 1 MiB that `@fflkit/webhooks` reads.
 */
export const LARGE_BODY_BYTES = 256 * 1024;

/** A `ping`, as the dashboard's Test action sends it. */
export function pingEvent(timestampMs: number): CheckEvent {
  const data = { webhook_id: 1, message: 'Webhook test ping from fflkit-sandbox check-receiver.' };
  return { event: 'ping', body: JSON.stringify({ event: 'ping', timestamp: timestamp(timestampMs), data }) };
}

/** A receipt event about `receipt`, at `timestampMs`; `receipt.deleted` carries `deleted_at`. */
export function receiptEvent(
  event: Exclude<WebhookEventName, 'ping'>,
  receipt: Receipt,
  timestampMs: number,
): CheckEvent {
  const at = timestamp(timestampMs);
  const data: Receipt | DeletedReceipt =
    event === 'receipt.deleted' ? { ...receipt, updated_at: at, deleted_at: at } : { ...receipt, updated_at: at };
  return { event, body: JSON.stringify({ event, timestamp: at, data }) };
}

/** An on-hand receipt of the check, recorded at `createdMs`. */
export function checkReceipt(id: number, createdMs: number): Receipt {
  const at = timestamp(createdMs);
  return {
    id,
    user_id: 1,
    record: id,
    book: 'Main',
    status: 'on_hand',
    serial_number: `CHECK-RECEIVER-${id}`,
    manufacturer: 'Example Arms Co.',
    importer: null,
    country_of_origin: null,
    model: 'EX-9 Compact',
    type: 'Pistol',
    caliber: '9mm Luger',
    receipt_date: at.slice(0, 10),
    purchase_amount: 389.5,
    received_from: 'Example Firearms Wholesale LLC',
    ffl_license: '9-99-999-01-6A-00001',
    address: null,
    city: null,
    state: null,
    zip: null,
    disposition: null,
    documents: [],
    e4473: null,
    created_at: at,
    updated_at: at,
  };
}

/**
 * A `receipt.updated` of at least {@link LARGE_BODY_BYTES} bytes: every text field at its longest
 * (255 characters, accented ones among them), a disposition and E4473 data, and documents up to
 * the size. Its text escapes `/` and characters outside ASCII as PHP's `json_encode` does (the
 * service behaves like a Laravel application), which changes nothing for a receiver that verifies
 * the bytes it got, and fails one that verifies a body it parsed and serialised again.
 */
export function largeReceiptEvent(id: number, timestampMs: number): CheckEvent {
  const at = timestamp(timestampMs);
  const long = (text: string) => text.repeat(Math.ceil(255 / text.length)).slice(0, 255);
  const receipt: Receipt = {
    ...checkReceipt(id, timestampMs),
    status: 'disposed',
    manufacturer: long('Fábrica de Armas Ejemplo S.A. '),
    importer: long('Example Import Co. '),
    country_of_origin: long('España '),
    model: long('EX-9 Compact Optics Ready '),
    caliber: long('9mm Luger '),
    received_from: long('Armería Ejemplo, Distribución Mayorista '),
    address: long('100 Example Way '),
    city: long('Springfield '),
    state: 'IL',
    zip: '62701-1234',
    disposition: {
      disposition_date: at.slice(0, 10),
      disposed_to: long('Jordan Q. Example '),
      address: long('200 Example Avenue '),
      city: long('Springfield '),
      state: 'IL',
      zip: '62701',
      sold_price: 549.99,
      nics_ccw: long('100EXAMPLE01 '),
      form_4473_serial: `CHECK-RECEIVER-${id}`,
      created_at: at,
    },
    e4473: {
      form_4473_serial: `CHECK-RECEIVER-${id}`,
      transferee_name: long('Jordan Q. Example '),
      nics_transaction_number: '1ABCD2EFG',
      nics_result: 'proceed',
      completed_at: at,
    },
  };
  const documents: ReceiptDocument[] = [];
  const text = () =>
    escapeAsPhp(JSON.stringify({ event: 'receipt.updated', timestamp: at, data: { ...receipt, documents } }));
  // Escaped, the text is ASCII: its length is its size in bytes. Each document adds its own text and a comma.
  for (let bytes = text().length; bytes < LARGE_BODY_BYTES; ) {
    const n = documents.length + 1;
    const document: ReceiptDocument = {
      id: n,
      name: long(`Bill of sale ${n} – página `),
      mime_type: 'application/pdf',
      size: 48_213 + n,
      url: `https://files.example.com/documents/${id}/${n}/${'x'.repeat(2000)}.pdf`,
      created_at: at,
    };
    bytes += escapeAsPhp(JSON.stringify(document)).length + (documents.length > 0 ? 1 : 0);
    documents.push(document);
  }
  return { event: 'receipt.updated', body: text() };
}

/** An ISO 8601 timestamp with its UTC offset, to the millisecond. */
function timestamp(ms: number): string {
  return new Date(ms).toISOString();
}

/** JSON text with `/` and every character outside ASCII escaped, as PHP's `json_encode` writes it. */
function escapeAsPhp(json: string): string {
  return json.replace(/[/\u0080-\uffff]/g, (char) =>
    char === '/' ? '\\/' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
