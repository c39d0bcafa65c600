/** The parts of a postal address as the contract carries them; each may be absent (`null`). */
export interface AddressParts {
  readonly address: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly zip: string | null;
}

/**
 * One line of a postal address, `street, city, ST zip`, leaving out the parts that are absent:
 * the bound book has one address column per party, not four.
 *
 * @example
 * ```ts
 * formatAddress({ address: '1 Example Way', city: 'Springfield', state: 'IL', zip: '62701' });
 * // '1 Example Way, Springfield, IL 62701'
 * formatAddress({ address: null, city: null, state: null, zip: null }); // ''
 * ```
 */
export function formatAddress({ address, city, state, zip }: AddressParts): string {
  const stateAndZip = [state, zip].filter(present).join(' ');
  return [address, city, stateAndZip].filter(present).join(', ');
}

function present(part: string | null): part is string {
  return part !== null && part !== '';
}
