import type { SandboxSnapshot } from '@boundbook/sandbox-core';

/** About how many bytes each chunk holds. */
const CHUNK_CHARACTERS = 1 << 20;

/**
 * The bytes of the data file for `snapshot`, as chunks of about 1 MB to write in order, each
 * made only when asked for: a writer that awaits its write between two chunks lets the event
 * loop answer requests while a large snapshot is written. Each record of a collection takes one
 * line, which keeps the file readable and lets {@link SnapshotLineParser} read it back one line
 * at a time. The bytes are always one JSON document equal in value to `JSON.stringify(snapshot)`.
 */
export function* encodeSnapshot(snapshot: SandboxSnapshot): Generator<Buffer, void, undefined> {
  let text = '{\n';
  let first = true;
  for (const [key, value] of Object.entries(snapshot)) {
    if (value === undefined || typeof value === 'function') continue;
    if (!first) text += ',\n';
    first = false;
    if (!Array.isArray(value) || value.length === 0) {
      text += `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
      continue;
    }
    text += `${JSON.stringify(key)}: [\n`;
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) text += ',\n';
      text += JSON.stringify(value[index]) ?? 'null';
      if (text.length >= CHUNK_CHARACTERS) {
        yield Buffer.from(text);
        text = '';
      }
    }
    text += '\n]';
  }
  text += first ? '}\n' : '\n}\n';
  yield Buffer.from(text);
}
