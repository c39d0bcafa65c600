/** What varies between runs, resolved from the options once. */
export interface CoreEnv {
  /** Wall-clock epoch milliseconds. */
  readonly now: () => number;
  /** Random bytes for tokens, secrets and delivery ids. */
  readonly randomBytes: (length: number) => Uint8Array;
  /** The lowercase hex SHA-256 of a string's UTF-8 bytes: how tokens are hashed. */
  readonly sha256Hex: (text: string) => string;
}
