import type { Readable } from 'node:stream';

/** Bytes of an oversized body the server reads and discards so that the client gets its 413. */
const DRAIN_LIMIT = 16 * 1_048_576;

/**
 * Reads a request body of at most `maxBytes` bytes. A body without a declared length (chunked)
 * that grows past the limit is read to its end and discarded instead of destroyed, so the
 * client, still sending, receives the 413 rather than a reset connection; a body that goes on
 * past 16 MB is cut off.
 */
export async function readBody(stream: Readable, maxBytes: number): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > DRAIN_LIMIT) {
      stream.destroy();
      break;
    }
    if (size <= maxBytes) chunks.push(chunk);
  }
  return size > maxBytes ? 'too-large' : Buffer.concat(chunks, size);
}
