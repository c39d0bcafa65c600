import { open } from 'node:fs/promises';

const NEWLINE = 0x0a;
/** Bytes read from the file at a time. */
const CHUNK_BYTES = 1 << 20;

/**
 * Reads a file line by line without holding it whole: `onLine` gets each line's text (UTF-8,
 * without its newline) and whether a newline ended it, which only the last line may lack.
 * Splitting on the newline byte is safe in UTF-8, where no multi-byte character contains it.
 * Errors of the file system (`ENOENT` included) reject the promise as they are.
 */
export async function readLines(
  file: string,
  onLine: (text: string, terminated: boolean) => void,
): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let pending: Buffer[] = [];
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        if (pending.length === 0) {
          onLine(chunk.toString('utf8', start, end), true);
        } else {
          pending.push(chunk.subarray(start, end));
          onLine(Buffer.concat(pending).toString('utf8'), true);
          pending = [];
        }
        start = end + 1;
      }
      // The buffer is reused for the next read, so the start of an unfinished line is copied.
      if (start < bytesRead) pending.push(Buffer.from(chunk.subarray(start)));
    }
    if (pending.length > 0) onLine(Buffer.concat(pending).toString('utf8'), false);
  } finally {
    await handle.close();
  }
}
