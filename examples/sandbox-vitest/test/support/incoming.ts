import type { IncomingFirearm } from '../../src/incoming-firearm';

let serial = 0;

/**
 * A firearm bought from a licensed wholesaler, with plainly fictitious data and a fresh serial
 * number.
 *
 * @example
 * ```ts
 * await receiveFirearm(logbook, incoming({ model: 'EX-45 Full Size' }));
 * ```
 */
export function incoming(overrides: Partial<IncomingFirearm> = {}): IncomingFirearm {
  serial += 1;
  return {
    serialNumber: `EXA${String(serial).padStart(7, '0')}`,
    make: 'Example Arms Co.',
    model: 'EX-9 Compact',
    kind: 'Pistol',
    caliber: '9mm Luger',
    costCents: 38_950,
    receivedOn: '2025-03-14',
    from: { name: 'Example Firearms Wholesale LLC', fflNumber: '9-99-999-01-6A-00001' },
    ...overrides,
  };
}
