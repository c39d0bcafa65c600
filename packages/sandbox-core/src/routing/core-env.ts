/** What varies between runs, resolved from the options once. */
export interface CoreEnv {
  /** Wall-clock epoch milliseconds. */
  readonly now: () => number;
  /** Random bytes for tokens, secrets and delivery ids. */
  readonly randomBytes: (length: number) => Uint8Array;
}
