import type { SandboxSnapshot } from '@boundbook/sandbox-core';

const MEMBER = /^("(?:[^"\\]|\\.)*"): (.*)$/s;

type State = 'start' | 'members' | 'records' | 'done' | 'invalid';

/**
 * Parses a data file line by line, as {@link readLines} hands the lines over, when the file is
 * in the layout that {@link encodeSnapshot} writes: `{`, one member per line, each record of a
 * collection on a line of its own, `}`. Only one line is held at a time, so reading a large
 * file costs little more memory than the records themselves. {@link SnapshotLineParser.line}
 * answers `false` as soon as the lines leave that layout (a file edited by hand, pretty-printed
 * or cut short); the caller then parses the whole file with `JSON.parse` instead.
 */
export class SnapshotLineParser {
  readonly #snapshot: Record<string, unknown> = {};
  #state: State = 'start';
  #members = 0;
  #key = '';
  #records: unknown[] = [];
  /** Whether the last member or record line ended with the comma that announces another. */
  #comma = false;

  /** Takes the next line (without its newline); answers `false` once the layout is left. */
  line(text: string): boolean {
    try {
      this.#state = this.#next(text);
    } catch {
      this.#state = 'invalid';
    }
    return this.#state !== 'invalid';
  }

  /** The snapshot, or `undefined` when the lines left the layout or stopped before `}`. */
  end(): SandboxSnapshot | undefined {
    return this.#state === 'done' ? (this.#snapshot as SandboxSnapshot) : undefined;
  }

  #next(text: string): State {
    if (this.#state === 'start') return text === '{' ? 'members' : 'invalid';
    if (this.#state === 'members') return this.#member(text);
    if (this.#state === 'records') return this.#record(text);
    return 'invalid';
  }

  #member(text: string): State {
    if (text === '}') return this.#members === 0 || !this.#comma ? 'done' : 'invalid';
    if (this.#members > 0 && !this.#comma) return 'invalid';
    const match = MEMBER.exec(text);
    if (match === null) return 'invalid';
    const key = JSON.parse(match[1]!) as string;
    // An own member named __proto__ cannot be assigned; JSON.parse of the whole file keeps it.
    if (key === '__proto__' || Object.hasOwn(this.#snapshot, key)) return 'invalid';
    const rest = match[2]!;
    this.#members += 1;
    if (rest === '[') {
      this.#key = key;
      this.#records = [];
      this.#comma = false;
      return 'records';
    }
    this.#comma = rest.endsWith(',');
    this.#snapshot[key] = JSON.parse(this.#comma ? rest.slice(0, -1) : rest) as unknown;
    return 'members';
  }

  #record(text: string): State {
    if (text.startsWith(']')) {
      if (this.#records.length === 0 || this.#comma || (text !== ']' && text !== '],')) return 'invalid';
      this.#snapshot[this.#key] = this.#records;
      this.#comma = text === '],';
      return 'members';
    }
    if (this.#records.length > 0 && !this.#comma) return 'invalid';
    this.#comma = text.endsWith(',');
    this.#records.push(JSON.parse(this.#comma ? text.slice(0, -1) : text) as unknown);
    return 'records';
  }
}
