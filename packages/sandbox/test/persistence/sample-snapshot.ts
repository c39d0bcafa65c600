import type { SandboxSnapshot } from '@boundbook/sandbox-core';

/** A snapshot with every kind of member the encoder meets. */
export const sampleSnapshot = (): SandboxSnapshot => ({
  format: 1,
  version: 7,
  sequences: { receipt: 2, account: 1 },
  receipts: [
    { id: 1, serial_number: 'A1', disposition: null, tags: ['x'] },
    { id: 2, serial_number: 'B"2\n', model: 'Modèle ✓', disposition: { date: '2025-01-02' } },
  ],
  audit: [{ id: 1, changes: { model: { from: null, to: 'x' } } }],
  numbers: [1, 'two', null, [3]],
  empty: [],
  note: 'text',
  missing: undefined,
});
