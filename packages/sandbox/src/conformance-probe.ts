import type { ConformanceOptions } from './conformance/run-conformance';
import type { ConformanceReport } from './conformance/verdicts';

// The conformance probe as the package offers it. The probes and the contract they check
// against are loaded only when a run starts, so that importing the package costs nothing more.

/**
 * Probes a running service (the real one, or a sandbox) and judges every choice of the contract:
 * `confirmed` when a probe saw the service keep it, `contradicted` (with the evidence: the
 * request, the answer, what was expected) when it did otherwise, `not-probed` with why. Its
 * probes are read-only unless `allowWrites` (meant for the service's own sandbox tokens): then it
 * makes receipts and a webhook endpoint named for the run, and deletes them again. Every answer
 * is also checked whole, as the drift proxy checks traffic; what breaks no choice of the contract
 * but a rule of the service's own document is in `violations`.
 *
 * @example
 * ```ts
 * import { runConformance } from '@fflkit/sandbox';
 *
 * const report = await runConformance({ baseUrl: 'https://logbook.example.com/rest/v1', token: process.env['FFLKIT_TOKEN']! });
 * for (const choice of report.choices) if (choice.status === 'contradicted') console.log(choice.id, choice.evidence);
 * ```
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const { runConformance: run } = await import('./conformance/run-conformance');
  return run(options);
}
