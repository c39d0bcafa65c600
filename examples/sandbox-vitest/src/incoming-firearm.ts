import type { ReceiptCreate } from '@fflkit/sdk';

/** A licensee who sold the firearm to the store: named by its FFL number. */
export interface LicensedSupplier {
  readonly name: string;
  /** Federal firearms license number, `9-99-999-01-6A-00001` style. */
  readonly fflNumber: string;
}

/** An unlicensed person who sold the firearm to the store: named by their address. */
export interface PrivateSeller {
  readonly name: string;
  readonly street: string;
  readonly city: string;
  /** USPS state code: the contract's list, so a typo does not compile. */
  readonly state: NonNullable<ReceiptCreate['state']>;
  readonly zip: string;
}

/** A firearm as the store's point-of-sale system books it in at the counter. */
export interface IncomingFirearm {
  readonly serialNumber: string;
  readonly make: string;
  readonly model: string;
  /** Pistol, Revolver, Rifle, Shotgun, Receiver, Frame, ... */
  readonly kind: string;
  readonly caliber: string;
  /** What the store paid, in cents, as the point-of-sale system keeps money. */
  readonly costCents: number;
  /** The day the store took the firearm in, `YYYY-MM-DD`. */
  readonly receivedOn: string;
  readonly from: LicensedSupplier | PrivateSeller;
}
