import { Writable } from 'node:stream';

/** A writable stream that keeps what is written to it, as a terminal or not. */
export interface CapturedStream extends Writable {
  readonly isTTY: boolean;
  /** Everything written so far. */
  text(): string;
}

/**
 * A stream to pass as stdout or stderr, to read back what was written.
 *
 * @example
 * ```ts
 * const stderr = captureStream();
 * await main(['--help'], { env: {}, stdout: captureStream(), stderr });
 * stderr.text();
 * ```
 */
export function captureStream({ isTTY = false } = {}): CapturedStream {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return Object.assign(stream, { isTTY, text: () => chunks.join('') });
}
