import type { SandboxSnapshot } from '@boundbook/sandbox-core';

const NEWLINE = 0x0a;
const COMMA = 0x2c;
const CLOSING_BRACKET = 0x5d;
const MEMBER = /^("(?:[^"\\]|\\.)*"): (.*)$/s;

/**
 * Parses the bytes of a data file. A file in the layout that {@link createSnapshotEncoder}
 * writes (one record per line) is parsed line by line, and each record's line is handed to
 * `remember`, so that the first write after a restart reuses the bytes instead of serialising
 * every record again. Any other valid JSON (a file edited by hand, say) is parsed whole.
 * Invalid JSON throws the `SyntaxError` of `JSON.parse`.
 *
 * @example
 * ```ts
 * const encoder = createSnapshotEncoder();
 * const snapshot = parseSnapshotFile(await readFile(file), encoder.remember);
 * ```
 */
export function parseSnapshotFile(
  bytes: Buffer,
  remember: (record: object, bytes: Buffer) => void,
): unknown {
  const remembered: [object, Buffer][] = [];
  const value = parseLayout(bytes, remembered);
  if (value === undefined) return JSON.parse(bytes.toString('utf8')) as unknown;
  for (const [record, line] of remembered) remember(record, line);
  return value;
}

/** The snapshot, or `undefined` when the bytes are not in the encoder's exact layout. */
function parseLayout(bytes: Buffer, remembered: [object, Buffer][]): SandboxSnapshot | undefined {
  const lines = splitLines(bytes);
  if (lines.length < 2 || text(lines[0]!) !== '{' || text(lines[lines.length - 1]!) !== '}') {
    return undefined;
  }
  const snapshot: Record<string, unknown> = {};
  let index = 1;
  const last = lines.length - 1;
  try {
    while (index < last) {
      const match = MEMBER.exec(text(lines[index]!));
      if (match === null) return undefined;
      const key = JSON.parse(match[1]!) as string;
      let rest = match[2]!;
      index += 1;
      if (rest === '[') {
        const records: unknown[] = [];
        for (;;) {
          if (index >= last) return undefined;
          const line = lines[index]!;
          index += 1;
          if (line[0] === CLOSING_BRACKET) {
            const closing = text(line);
            if (records.length === 0 || (closing !== ']' && closing !== '],')) return undefined;
            rest = closing.slice(1);
            break;
          }
          const recordBytes = line.at(-1) === COMMA ? line.subarray(0, -1) : line;
          if (records.length > 0 && lines[index - 2]!.at(-1) !== COMMA) return undefined;
          const record: unknown = JSON.parse(recordBytes.toString('utf8'));
          if (typeof record === 'object' && record !== null && !Array.isArray(record)) {
            remembered.push([record, recordBytes]);
          }
          records.push(record);
        }
        if (lines[index - 2]!.at(-1) === COMMA) return undefined;
        snapshot[key] = records;
      } else {
        const json = rest.endsWith(',') ? rest.slice(0, -1) : rest;
        snapshot[key] = JSON.parse(json) as unknown;
        rest = rest.endsWith(',') ? ',' : '';
      }
      if ((rest === ',') !== (index < last)) return undefined;
    }
  } catch {
    return undefined;
  }
  return snapshot as SandboxSnapshot;
}

function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(NEWLINE, start);
    if (end === -1) {
      lines.push(bytes.subarray(start));
      break;
    }
    lines.push(bytes.subarray(start, end));
    start = end + 1;
  }
  return lines;
}

function text(line: Buffer): string {
  return line.toString('utf8');
}
