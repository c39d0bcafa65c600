import { writeFileAtomic } from './write-file-atomic';

/**
 * Writes the CSV to a file path, atomically (a spreadsheet that has the file open never reads
 * half a book), or to a stream such as stdout, resolving once the stream has taken it.
 *
 * @example
 * ```ts
 * await writeCsv('bound-book.csv', csv);
 * await writeCsv(process.stdout, csv);
 * ```
 */
export async function writeCsv(output: string | NodeJS.WritableStream, csv: string): Promise<void> {
  if (typeof output === 'string') {
    await writeFileAtomic(output, csv);
    return;
  }
  await new Promise<void>((resolve, reject) => {
    output.write(csv, (error) => (error ? reject(error) : resolve()));
  });
}
