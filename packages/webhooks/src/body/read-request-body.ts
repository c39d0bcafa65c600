import { concatBytes } from './concat-bytes';
import { declaredLength } from './declared-length';

/**
 * The whole body of a Fetch `Request` as bytes, or `'too_large'` as soon as it is known to exceed
 * `maxBytes` (from `Content-Length`, or while reading, when the stream is cancelled). Rejects
 * when the stream fails (the client went away).
 *
 * @example
 * ```ts
 * const body = await readRequestBody(request, 1024 * 1024);
 * ```
 */
export async function readRequestBody(request: Request, maxBytes: number): Promise<Uint8Array | 'too_large'> {
  if ((declaredLength(request.headers.get('content-length')) ?? 0) > maxBytes) return 'too_large';
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concatBytes(chunks, size);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return 'too_large';
    }
    chunks.push(value);
  }
}
