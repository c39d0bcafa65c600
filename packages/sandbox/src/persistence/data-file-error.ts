/**
 * The sandbox's data file cannot be read or written: the message names the file, the cause and
 * what to do next.
 *
 * @example
 * ```ts
 * try {
 *   await startSandbox({ data: './sandbox.json' });
 * } catch (error) {
 *   if (error instanceof DataFileError) console.error(error.message, error.file);
 * }
 * ```
 */
export class DataFileError extends Error {
  override readonly name = 'DataFileError';
  /** Path of the data file. */
  readonly file: string;

  constructor(file: string, message: string, options?: ErrorOptions) {
    super(`[@boundbook/sandbox] ${message}`, options);
    this.file = file;
  }
}
