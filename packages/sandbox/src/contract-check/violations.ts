import { findChoice } from './choices';

// What a check finds: a violation of the contract by an answer or a delivery, named by where it
// happened (method, path template, status, JSON pointer), what the contract expects, what was
// seen, and the choice it contradicts; and the log that keeps each distinct violation once, with
// how often it was seen, for the live lines, the console and the report.

/** One way an exchange or a delivery departs from the contract. */
export interface Violation {
  /** The request's method; `POST` for a delivery. */
  readonly method: string;
  /** The path template (`/receipts/{id}`), the path as sent when no operation has it, or `webhook:<event>`. */
  readonly path: string;
  /** The answer's status; `null` for a delivery. */
  readonly status: number | null;
  /**
   * Where, as a JSON pointer into the exchange: `/status`, `/headers/x-ratelimit-limit`,
   * `/body/meta/per_page` (the answer's, or the delivery's).
   */
  readonly pointer: string;
  /** The id of the contract's choice it contradicts, or `null` when what it breaks is not one of them. */
  readonly choice: string | null;
  /** What the contract expects there, in words. */
  readonly expected: string;
  /** What was seen there, in words. */
  readonly seen: string;
  /** The violation in one sentence. */
  readonly message: string;
}

/** A violation as a check finds it, before its sentence is written. */
export type ViolationFinding = Omit<Violation, 'message'>;

/** A violation with how many times it was seen, as the report lists it. */
export interface ReportedViolation extends Violation {
  readonly count: number;
}

/** What the proxy writes with `--report` when it stops. */
export interface DriftReport {
  /** How many exchanges of the service API were checked. */
  readonly exchanges: number;
  /** How many webhook deliveries were checked. */
  readonly deliveries: number;
  /** Each distinct violation once, in the order first seen. */
  readonly violations: readonly ReportedViolation[];
}

/** The most distinct violations a log keeps; what comes after is counted, not kept. */
const MAX_VIOLATIONS = 1_000;

/** A finding with its sentence. */
export function describeViolation(finding: ViolationFinding): Violation {
  const choice = finding.choice === null ? undefined : findChoice(finding.choice);
  const message =
    `${finding.method} ${finding.path}${finding.status === null ? '' : ` ${finding.status}`} ${finding.pointer}: ` +
    `expected ${finding.expected}, seen ${finding.seen}` +
    (choice === undefined ? '' : `; contradicts ${choice.id}: ${choice.rule}`);
  return { ...finding, message };
}

/** The distinct violations seen so far, and how many exchanges and deliveries were checked. */
export class ViolationLog {
  readonly #entries = new Map<string, { violation: Violation; count: number }>();
  readonly #onNew: (violation: Violation) => void;
  #exchanges = 0;
  #deliveries = 0;
  #dropped = 0;

  /** `onNew` hears each violation the first time it is seen. */
  constructor(onNew: (violation: Violation) => void = () => undefined) {
    this.#onNew = onNew;
  }

  /** Counts a checked exchange (or delivery) and keeps what its check found. */
  record(kind: 'exchange' | 'delivery', findings: readonly ViolationFinding[]): void {
    if (kind === 'exchange') this.#exchanges += 1;
    else this.#deliveries += 1;
    for (const finding of findings) {
      const key = `${finding.method} ${finding.path} ${finding.status} ${finding.pointer} ${finding.choice}`;
      const entry = this.#entries.get(key);
      if (entry !== undefined) {
        entry.count += 1;
        continue;
      }
      if (this.#entries.size >= MAX_VIOLATIONS) {
        this.#dropped += 1;
        continue;
      }
      const violation = describeViolation(finding);
      this.#entries.set(key, { violation, count: 1 });
      this.#onNew(violation);
    }
  }

  /** How many distinct violations were not kept, past the most a log keeps. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The exchanges and deliveries checked, and each distinct violation with its count. */
  report(): DriftReport {
    return {
      exchanges: this.#exchanges,
      deliveries: this.#deliveries,
      violations: [...this.#entries.values()].map(({ violation, count }) => ({ ...violation, count })),
    };
  }
}

/** A value in a few words: `the string "318"`, `null`, `an object with data, links`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return `a list of ${value.length}`;
  const keys = Object.keys(value as object);
  if (keys.length === 0) return 'an empty object';
  return `an object with ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', ...' : ''}`;
}
