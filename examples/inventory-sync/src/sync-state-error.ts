/**
 * The checkpoint file cannot be used: it is not one of this tool's, or it holds the mirror of
 * another service or account. The message names the file and says what to do next.
 *
 * @example
 * ```ts
 * throw new SyncStateError('.sync-checkpoint.json is not valid JSON: delete it to sync everything again');
 * ```
 */
export class SyncStateError extends Error {
  override readonly name = 'SyncStateError';
}
