import { CONTRACT_CHOICES, choiceId } from '../contract-check/choices';
import { describeViolation, type Violation } from '../contract-check/violations';
import { answerOf, type ProbeExchange } from './probe-client';

// What a conformance run concludes about each choice of the contract: contradicted when a probe
// saw the service do otherwise (or an answer it got broke the choice, as the drift proxy judges
// it), confirmed when a probe aimed at it saw the service keep it, else not probed, with why.

/** What a run saw: the request, the answer, and what the contract expected of it. */
export interface ConformanceEvidence {
  /** `GET /receipts?per_page=201 (with the token)`. */
  readonly request: string;
  readonly answer: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
  };
  readonly expected: string;
}

/** What a run concludes about one choice. */
export interface ChoiceVerdict {
  readonly id: string;
  readonly status: 'confirmed' | 'contradicted' | 'not-probed';
  /** The rule, as the contract states it. */
  readonly rule: string;
  /** What contradicted it (for `contradicted`), or what confirmed it (for `confirmed`). */
  readonly evidence: readonly ConformanceEvidence[];
  /** Why it was not probed (for `not-probed`). */
  readonly reason?: string;
}

/** The outcome of `runConformance()`. */
export interface ConformanceReport {
  /** The service's base URL. */
  readonly service: string;
  /** The run's name, which the records it wrote carry. */
  readonly run: string;
  /** Whether the probes that write ran. */
  readonly writes: boolean;
  /** Every choice of the contract, with its verdict, in the order of their ids. */
  readonly choices: readonly ChoiceVerdict[];
  /** What the answers broke that is not one of the contract's choices (the service's own rules). */
  readonly violations: readonly Violation[];
  readonly summary: { readonly confirmed: number; readonly contradicted: number; readonly notProbed: number };
  /** What the run could not do, or could not undo, with why. */
  readonly notes: readonly string[];
}

/** The most pieces of evidence kept per choice. */
const KEPT = 3;

/** The verdicts of a run as they come in. */
export class Verdicts {
  readonly #contradicted = new Map<string, ConformanceEvidence[]>();
  readonly #confirmed = new Map<string, ConformanceEvidence[]>();
  readonly #unprobed = new Map<string, string>();
  readonly #violations = new Map<string, Violation>();

  /** Takes what the checks found in an exchange: each finding contradicts its choice. */
  observe(exchange: ProbeExchange): void {
    for (const finding of exchange.findings) {
      if (finding.choice === null) {
        const violation = describeViolation(finding);
        this.#violations.set(violation.message, violation);
        continue;
      }
      this.#add(
        this.#contradicted,
        finding.choice,
        evidence(exchange, `${finding.pointer}: ${finding.expected} (seen ${finding.seen})`),
      );
    }
    // A 429 met on the way shows the headers it must carry.
    if (exchange.status === 429)
      this.clean(exchange, 429, ['rate-limit.retry-after', 'rate-limit.reset'], 'a 429 with its headers');
  }

  /** `ok` confirms `id` with the exchange as evidence; otherwise the exchange contradicts it. */
  expect(id: string, exchange: ProbeExchange, ok: boolean, expected: string): void {
    this.#add(ok ? this.#confirmed : this.#contradicted, choiceId(id), evidence(exchange, expected));
  }

  /**
   * Confirms each of `ids` that the checks of `exchange` found nothing against, when it was
   * answered `status` (0 for a delivery): an answer of another status shows nothing of them.
   */
  clean(exchange: ProbeExchange, status: number, ids: readonly string[], expected: string): void {
    if (exchange.status !== status) return;
    for (const id of ids) {
      if (!exchange.findings.some((finding) => finding.choice === id))
        this.#add(this.#confirmed, choiceId(id), evidence(exchange, expected));
    }
  }

  /** Notes why `id` could not be probed in this run. */
  unprobed(id: string, reason: string): void {
    this.#unprobed.set(choiceId(id), reason);
  }

  /** The report of the run. */
  report(run: Omit<ConformanceReport, 'choices' | 'violations' | 'summary'>): ConformanceReport {
    const choices = CONTRACT_CHOICES.map((choice): ChoiceVerdict => {
      const against = this.#contradicted.get(choice.id);
      if (against !== undefined) return { id: choice.id, status: 'contradicted', rule: choice.rule, evidence: against };
      const confirming = this.#confirmed.get(choice.id);
      if (confirming !== undefined)
        return { id: choice.id, status: 'confirmed', rule: choice.rule, evidence: confirming };
      const reason =
        this.#unprobed.get(choice.id) ??
        (choice.probe === 'none'
          ? `it cannot be seen from outside: ${choice.how}`
          : choice.probe === 'traffic'
            ? `it is seen in real traffic only: run fflkit-sandbox proxy in front of the service (${choice.how})`
            : choice.probe === 'write' && !run.writes
              ? "it needs the probes that write: pass --allow-writes, with a token of the service's sandbox"
              : `no probe of this run reached it (${choice.how})`);
      return { id: choice.id, status: 'not-probed', rule: choice.rule, evidence: [], reason };
    });
    const count = (status: ChoiceVerdict['status']) => choices.filter((choice) => choice.status === status).length;
    return {
      ...run,
      choices,
      violations: [...this.#violations.values()],
      summary: { confirmed: count('confirmed'), contradicted: count('contradicted'), notProbed: count('not-probed') },
    };
  }

  #add(map: Map<string, ConformanceEvidence[]>, id: string, item: ConformanceEvidence): void {
    const list = map.get(id) ?? [];
    if (list.length < KEPT) list.push(item);
    map.set(id, list);
  }
}

function evidence(exchange: ProbeExchange, expected: string): ConformanceEvidence {
  return { request: exchange.request, answer: answerOf(exchange), expected };
}
