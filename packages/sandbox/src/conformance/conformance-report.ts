import type { ConformanceReport } from './verdicts';

// A conformance report as text for a terminal: what the service contradicts first, each with
// its evidence; then what it confirms; then what was not probed, and why.

/** The report as text: contradicted choices with their evidence, confirmed ones, and the rest with why. */
export function formatConformanceReport(report: ConformanceReport): string {
  const lines = [
    `Conformance of ${report.service} to the FFLKit contract (run ${report.run}, ${report.writes ? 'with the probes that write' : 'read-only probes'}):`,
    '',
  ];
  const contradicted = report.choices.filter((choice) => choice.status === 'contradicted');
  for (const choice of contradicted) {
    lines.push(`contradicted  ${choice.id}: ${choice.rule}`);
    for (const item of choice.evidence) {
      const answered = item.answer.status === 0 ? '' : ` answered ${item.answer.status}`;
      lines.push(`    ${item.request}${answered}; expected ${item.expected}`);
    }
  }
  for (const violation of report.violations) lines.push(`violation     ${violation.message}`);
  if (contradicted.length > 0 || report.violations.length > 0) lines.push('');
  for (const choice of report.choices.filter((entry) => entry.status === 'confirmed')) {
    lines.push(`confirmed     ${choice.id}`);
  }
  lines.push('');
  for (const choice of report.choices.filter((entry) => entry.status === 'not-probed')) {
    lines.push(`not probed    ${choice.id}: ${choice.reason ?? ''}`);
  }
  if (report.notes.length > 0) lines.push('', ...report.notes.map((note) => `note: ${note}`));
  const { confirmed, contradicted: against, notProbed } = report.summary;
  lines.push(
    '',
    `${confirmed} confirmed, ${against} contradicted, ${notProbed} not probed` +
      (report.violations.length === 0 ? '.' : `; ${report.violations.length} other violations of the contract.`),
  );
  return `${lines.join('\n')}\n`;
}
