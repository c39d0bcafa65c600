/**
 * A version 4 UUID drawn from the given byte source.
 *
 * @example
 * ```ts
 * randomUuid(env.randomBytes); // '3b1f6a2e-8c4d-4e5f-9a7b-1c2d3e4f5a6b'
 * ```
 */
export function randomUuid(randomBytes: (length: number) => Uint8Array): string {
  const bytes = Uint8Array.from(randomBytes(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
