import type { FileHandle } from 'node:fs/promises';

/**
 * Writes all of `bytes` at the file's position (at its end for a file opened to append): one
 * `write` call, followed by more only in the rare case that the system writes fewer bytes.
 */
export async function writeFully(handle: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    if (bytesWritten <= 0) throw new Error(`wrote ${offset} of ${bytes.length} bytes`);
    offset += bytesWritten;
  }
}
