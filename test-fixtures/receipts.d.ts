import type { DispositionCreate, Receipt, ReceiptCreate } from '@fflkit/types';

/**
 * A valid `POST /receipts` body: the contract's acquisition from a licensee (serial
 * `EXA0012345`, into `Main`, from a licensee by license number), with `overrides`. Overrides
 * that a `ReceiptCreate` cannot hold (a number for `zip`) are for validation tests: the type
 * then says what the body holds.
 */
export function receiptBody(overrides?: Partial<ReceiptCreate>): ReceiptCreate;
export function receiptBody<Overrides extends Record<string, unknown>>(
  overrides: Overrides,
): Omit<ReceiptCreate, keyof Overrides> & Overrides;

/**
 * {@link receiptBody} with a serial number of its own, `SBX` and `n` in seven digits
 * (`SBX0000007`), for seeding many receipts that a test or a benchmark tells apart.
 */
export function numberedReceiptBody(n: number, overrides?: Partial<ReceiptCreate>): ReceiptCreate;

/** The serial number of {@link numberedReceiptBody}`(n)`: `SBX0000007` for 7. */
export function numberedSerial(n: number): string;

/** A valid `POST /receipts/{id}/dispose` body: the contract's sale with a Form 4473 serial, on the receipt's date. */
export function dispositionBody(overrides?: Partial<DispositionCreate>): DispositionCreate;
export function dispositionBody<Overrides extends Record<string, unknown>>(
  overrides: Overrides,
): Omit<DispositionCreate, keyof Overrides> & Overrides;

/**
 * A valid `POST /receipts/{id}/dispose` body: the contract's transfer with the recipient's
 * address, on the receipt's date. Unlike a Form 4473 serial, an address may dispose of any
 * number of receipts of one account.
 */
export function dispositionWithAddressBody(overrides?: Partial<DispositionCreate>): DispositionCreate;
export function dispositionWithAddressBody<Overrides extends Record<string, unknown>>(
  overrides: Overrides,
): Omit<DispositionCreate, keyof Overrides> & Overrides;

/** The receipt resource of {@link receiptBody}`()` as the service answers it: the contract's example (id 1042, record 318). */
export function receiptResource(overrides?: Partial<Receipt>): Receipt;
