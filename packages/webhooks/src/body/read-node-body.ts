import { concatBytes } from './concat-bytes';
import { declaredLength } from './declared-length';

/** The part of Node's `http.IncomingMessage` (and Express's request) that the adapters use. */
export interface NodeRequestLike {
  readonly method?: string | undefined;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** True once the body stream has been read to its end, by a body parser for one. */
  readonly readableEnded?: boolean;
  /** Set by body parsers: raw bytes or text (`express.raw()`, `express.text()`) are used as they are. */
  readonly body?: unknown;
  on(event: string, listener: (...args: any[]) => void): unknown;
  removeListener(event: string, listener: (...args: any[]) => void): unknown;
  resume(): unknown;
}

const encoder = new TextEncoder();

/**
 * The whole body of a Node request as bytes, or `'too_large'` as soon as it is known to exceed
 * `maxBytes`; the rest of a body too large is drained unread, so the answer can still be
 * written. Rejects when the stream fails.
 *
 * @example
 * ```ts
 * const body = await readNodeBody(req, 1024 * 1024);
 * ```
 */
export function readNodeBody(request: NodeRequestLike, maxBytes: number): Promise<Uint8Array | 'too_large'> {
  const contentLength = request.headers['content-length'];
  if ((declaredLength(typeof contentLength === 'string' ? contentLength : undefined) ?? 0) > maxBytes) {
    request.resume();
    return Promise.resolve('too_large');
  }
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const stop = (): void => {
      request.removeListener('data', onData);
      request.removeListener('end', onEnd);
      request.removeListener('error', onError);
    };
    const onData = (chunk: Uint8Array | string): void => {
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      size += bytes.byteLength;
      if (size > maxBytes) {
        stop();
        request.resume();
        resolve('too_large');
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = (): void => {
      stop();
      resolve(concatBytes(chunks, size));
    };
    const onError = (error: unknown): void => {
      stop();
      reject(error);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  });
}
