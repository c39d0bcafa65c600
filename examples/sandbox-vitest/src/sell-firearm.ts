import type { LogbookClient } from '@fflkit/sdk';

/** A counter sale to an unlicensed buyer, completed with an ATF Form 4473. */
export interface CounterSale {
  readonly receiptId: number;
  /** The day of the transfer, `YYYY-MM-DD`. */
  readonly soldOn: string;
  readonly buyerName: string;
  /** Serial number of the completed Form 4473, which stands for the buyer's address in the book. */
  readonly form4473Serial: string;
  /** Sale price, in cents. */
  readonly priceCents: number;
}

/**
 * Records the disposition of a sold firearm. Selling one already disposed of, or a 4473 serial
 * already used, comes back as the SDK's `ValidationError`.
 *
 * @example
 * ```ts
 * await sellFirearm(logbook, { receiptId: 1042, soldOn: '2025-04-02', buyerName: 'Jordan Q. Example', form4473Serial: 'EX-2025-000123', priceCents: 52_999 });
 * ```
 */
export async function sellFirearm(logbook: LogbookClient, sale: CounterSale): Promise<void> {
  await logbook.receipts.dispose(sale.receiptId, {
    disposition_date: sale.soldOn,
    disposed_to: sale.buyerName,
    form_4473_serial: sale.form4473Serial,
    sold_price: sale.priceCents / 100,
  });
}
