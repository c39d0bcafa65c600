/** Two lowercase hex digits per byte value. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * A version 4 UUID drawn from the given byte source.
 *
 * @example
 * ```ts
 * randomUuid(env.randomBytes); // '3b1f6a2e-8c4d-4e5f-9a7b-1c2d3e4f5a6b'
 * ```
 */
export function randomUuid(randomBytes: (length: number) => Uint8Array): string {
  const bytes = randomBytes(16);
  const hex = (position: number): string => HEX[(bytes[position] ?? 0) & 0xff]!;
  const version = HEX[((bytes[6] ?? 0) & 0x0f) | 0x40]!;
  const variant = HEX[((bytes[8] ?? 0) & 0x3f) | 0x80]!;
  return (
    hex(0) + hex(1) + hex(2) + hex(3) + '-' +
    hex(4) + hex(5) + '-' +
    version + hex(7) + '-' +
    variant + hex(9) + '-' +
    hex(10) + hex(11) + hex(12) + hex(13) + hex(14) + hex(15)
  );
}
