// A request's raw body, up to a limit: read from a Fetch `Request` (the handler's `handle`) or from
// a Node request stream (the Node adapters), or measured when a body parser has already read it.
// Reading stops as soon as the body is known to be too large, from `Content-Length` or while
// reading, so a large body is never held in memory; one already read is refused before its HMAC.

/** The part of Node's `http.IncomingMessage` (and Express's request) that the adapters use. */
export interface NodeRequestLike {
  readonly method?: string | undefined;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** True once the body stream has been read to its end, by a body parser for one. */
  readonly readableEnded?: boolean | undefined;
  /** Set by body parsers: raw bytes or text (`express.raw()`, `express.text()`) are used as they are. */
  readonly body?: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: any listener of Node's stream events, whatever its parameters
  on(event: string, listener: (...args: any[]) => void): unknown;
  // biome-ignore lint/suspicious/noExplicitAny: as for `on`
  removeListener(event: string, listener: (...args: any[]) => void): unknown;
  resume(): unknown;
}

const encoder = new TextEncoder();

/**
 * The whole body of a Fetch `Request` as bytes, or `'too_large'` as soon as it is known to exceed
 * `maxBytes` (from `Content-Length`, or while reading, when the stream is cancelled). Rejects
 * when the stream fails (the client went away).
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

/**
 * The whole body of a Node request as bytes, or `'too_large'` as soon as it is known to exceed
 * `maxBytes`; the rest of a body too large is drained unread, so the answer can still be
 * written. Rejects when the stream fails.
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

/**
 * Whether a body given whole (to `receive`, or read by `express.raw()` or `express.text()`) is
 * longer than `maxBytes` once encoded: text is signed as UTF-8, so it is measured in UTF-8 bytes,
 * counted without encoding it.
 */
export function exceedsBytes(payload: string | Uint8Array, maxBytes: number): boolean {
  if (typeof payload !== 'string') return payload.byteLength > maxBytes;
  // Each UTF-16 code unit is one to three UTF-8 bytes: most texts are decided by their length.
  if (payload.length > maxBytes) return true;
  if (payload.length * 3 <= maxBytes) return false;
  let bytes = 0;
  for (let index = 0; index < payload.length; index += 1) {
    const unit = payload.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && isLowSurrogate(payload.charCodeAt(index + 1))) {
      // A surrogate pair is one code point of four bytes.
      bytes += 4;
      index += 1;
    } else bytes += 3; // the rest of the BMP, and a lone surrogate, encoded as U+FFFD
    if (bytes > maxBytes) return true;
  }
  return false;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit < 0xe000;
}

/** The body length a `Content-Length` header declares, or `undefined` when it declares none. */
export function declaredLength(contentLength: string | null | undefined): number | undefined {
  if (!contentLength) return undefined;
  const length = Number(contentLength);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/** One `Uint8Array` holding the chunks in order (a single chunk as it is); `size` is their total length. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
