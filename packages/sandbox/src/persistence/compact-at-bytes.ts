/** The journal size from which it is folded into the data file, unless told otherwise: 64 MiB. */
export const DEFAULT_COMPACT_AT_BYTES = 64 * 2 ** 20;

/**
 * The journal size in bytes from which the sandbox folds the journal into the data file:
 * `BOUNDBOOK_SANDBOX_COMPACT_AT_BYTES` when set, else {@link DEFAULT_COMPACT_AT_BYTES}. A value
 * that is not a whole number of at least 1 is a setup mistake and throws a `TypeError`.
 */
export function compactAtBytes(environment: Readonly<Record<string, string | undefined>>): number {
  const text = environment['BOUNDBOOK_SANDBOX_COMPACT_AT_BYTES'];
  if (text === undefined || text === '') return DEFAULT_COMPACT_AT_BYTES;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(
      `[@boundbook/sandbox] BOUNDBOOK_SANDBOX_COMPACT_AT_BYTES must be a whole number of bytes of at least 1, not ${JSON.stringify(text)}`,
    );
  }
  return value;
}
