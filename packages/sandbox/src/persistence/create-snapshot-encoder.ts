import type { SandboxSnapshot } from '@boundbook/sandbox-core';

/** Turns snapshots into the bytes of the data file, remembering each record's bytes. */
export interface SnapshotEncoder {
  /** The data file's bytes for `snapshot`, as chunks to write in order. */
  encode(snapshot: SandboxSnapshot): Buffer[];
  /** Takes `bytes` as the encoding of `record`, as read back from the data file. */
  remember(record: object, bytes: Buffer): void;
}

const NEWLINE = 0x0a;
const SEPARATOR = Buffer.from(',\n');
const OPEN = Buffer.from('{\n');
const CLOSE = Buffer.from('\n}\n');

/**
 * Makes the encoder of the data file, which stays fast as the file grows.
 *
 * The core's records are immutable (a change replaces the record object), so the UTF-8 bytes of
 * each element of a top-level array are cached by object identity and reused until the record
 * is replaced: a write costs one `JSON.stringify` per new or changed record, and the chunks go to
 * the file with one vectored write, without joining them into one string first. Each record
 * takes one line, which keeps the file readable and lets {@link parseSnapshotFile} recognise
 * the records when the file is read back. The bytes are always one JSON document equal in value
 * to `JSON.stringify(snapshot)`.
 *
 * @example
 * ```ts
 * const encoder = createSnapshotEncoder();
 * const text = Buffer.concat(encoder.encode(core.snapshot())).toString('utf8');
 * JSON.parse(text); // the same value as core.snapshot()
 * ```
 */
export function createSnapshotEncoder(): SnapshotEncoder {
  const cache = new WeakMap<object, Buffer>();

  const recordBytes = (record: unknown): Buffer => {
    // A list may grow in place, so only objects that are not lists are cached.
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      return Buffer.from(JSON.stringify(record) ?? 'null');
    }
    let bytes = cache.get(record);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(record) ?? 'null');
      cache.set(record, bytes);
    }
    return bytes;
  };

  return {
    encode(snapshot) {
      const chunks: Buffer[] = [OPEN];
      let first = true;
      for (const [key, value] of Object.entries(snapshot)) {
        if (value === undefined || typeof value === 'function') continue;
        if (!first) chunks.push(SEPARATOR);
        first = false;
        if (!Array.isArray(value) || value.length === 0) {
          chunks.push(Buffer.from(`${JSON.stringify(key)}: ${JSON.stringify(value)}`));
          continue;
        }
        chunks.push(Buffer.from(`${JSON.stringify(key)}: [\n`));
        for (let index = 0; index < value.length; index += 1) {
          if (index > 0) chunks.push(SEPARATOR);
          chunks.push(recordBytes(value[index]));
        }
        chunks.push(Buffer.of(NEWLINE, 0x5d)); // "\n]"
      }
      chunks.push(first ? Buffer.from('}\n') : CLOSE);
      return chunks;
    },
    remember(record, bytes) {
      cache.set(record, bytes);
    },
  };
}
