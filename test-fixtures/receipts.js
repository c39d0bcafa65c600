// The sample receipt of the contract (openapi/openapi.yaml: the `fromLicensee` example of
// `POST /receipts`, serial EXA0012345), its two dispositions and the resource the service answers
// for it, as builders. Plain ESM with its types beside it (receipts.d.ts), so that the packages'
// tests, the root tests and the benchmarks (plain .mjs run by Node) share one copy.
//
// The dates are the receipt's, 2025-03-14: sandbox-core's tests run on a clock stopped at
// 2025-03-14T15:04:05Z, the moment of the contract's examples, where a later date would be in
// the future (422). A disposition on the day of the receipt is valid.

/** A valid `POST /receipts` body: the contract's acquisition from a licensee, with `overrides`. */
export function receiptBody(overrides = {}) {
  return {
    book: 'Main',
    serial_number: 'EXA0012345',
    manufacturer: 'Example Arms Co.',
    model: 'EX-9 Compact',
    type: 'Pistol',
    caliber: '9mm Luger',
    receipt_date: '2025-03-14',
    purchase_amount: 389.5,
    received_from: 'Example Firearms Wholesale LLC',
    ffl_license: '9-99-999-01-6A-00001',
    ...overrides,
  };
}

/**
 * {@link receiptBody} with a serial number of its own, `SBX` and `n` in seven digits
 * (`SBX0000007`), for seeding many receipts that a test or a benchmark tells apart.
 */
export function numberedReceiptBody(n, overrides = {}) {
  return receiptBody({ serial_number: numberedSerial(n), ...overrides });
}

/** The serial number of {@link numberedReceiptBody}`(n)`. */
export function numberedSerial(n) {
  return `SBX${String(n).padStart(7, '0')}`;
}

/** A valid `POST /receipts/{id}/dispose` body: the contract's sale with a Form 4473 serial. */
export function dispositionBody(overrides = {}) {
  return {
    disposition_date: '2025-03-14',
    disposed_to: 'John Q. Example',
    sold_price: 549.99,
    nics_ccw: '100EXAMPLE01',
    form_4473_serial: '2025-000123',
    ...overrides,
  };
}

/**
 * A valid `POST /receipts/{id}/dispose` body: the contract's transfer with the recipient's
 * address. A Form 4473 serial is unique within an account; an address is not, so this one can
 * dispose of any number of receipts of one account.
 */
export function dispositionWithAddressBody(overrides = {}) {
  return {
    disposition_date: '2025-03-14',
    disposed_to: 'Example Firearms Wholesale LLC',
    address: '200 Example Avenue',
    city: 'Springfield',
    state: 'IL',
    zip: '62702-1234',
    ...overrides,
  };
}

/** The receipt resource of {@link receiptBody}`()` as the service answers it: the contract's example. */
export function receiptResource(overrides = {}) {
  return {
    id: 1042,
    user_id: 17,
    record: 318,
    book: 'Main',
    status: 'on_hand',
    serial_number: 'EXA0012345',
    manufacturer: 'Example Arms Co.',
    importer: null,
    country_of_origin: null,
    model: 'EX-9 Compact',
    type: 'Pistol',
    caliber: '9mm Luger',
    receipt_date: '2025-03-14',
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
    created_at: '2025-03-14T15:04:05Z',
    updated_at: '2025-03-14T15:04:05Z',
    ...overrides,
  };
}
