import {
  formatMs,
  type ReceiverCheckReport,
  type ReceiverCheckRequest,
  type ReceiverCheckResult,
} from './check-receiver';

// The receiver check's report as text for a terminal or a CI log: one line per check, with the
// reason and the fix on the line of one that failed or warned, then what the check assumes.

const LABELS: Readonly<Record<ReceiverCheckResult['outcome'], string>> = {
  pass: 'PASS',
  warn: 'WARN',
  fail: 'FAIL',
  skipped: 'SKIP',
};

/**
 * The report of `checkReceiver` as text: a heading, one line per check (its outcome, what it
 * sent, each answer and its time, and on a failure or a warning the reason and what to fix), what
 * the passed checks assume, and a closing count.
 *
 * @example
 * ```ts
 * import { checkReceiver, formatReceiverReport } from '@fflkit/sandbox';
 *
 * const report = await checkReceiver({ url: 'http://127.0.0.1:3000/webhooks', secret: 'whsec_...' });
 * process.stdout.write(formatReceiverReport(report));
 * // PASS  signed ping          200 in 3 ms
 * // FAIL  forged signature     200 in 2 ms: It answered 200 to a delivery whose X-SVC-Signature ... Fix: ...
 * ```
 */
export function formatReceiverReport(report: ReceiverCheckReport): string {
  const width = Math.max(...report.checks.map((check) => titleOf(check).length));
  const lines = [
    `Checking the webhook receiver at ${report.url}`,
    `(each answer within ${formatMs(report.timeoutMs)}, as the service waits; a warning past ${formatMs(report.warnAfterMs)})`,
    '',
  ];
  for (const check of report.checks) {
    const answers = check.requests.map(formatAnswer).join(', then ');
    const why = [check.reason, check.fix === null ? null : `Fix: ${check.fix}`]
      .filter((part) => part !== null)
      .join(' ');
    const detail = [answers, why].filter((part) => part !== '').join(': ');
    lines.push(`${LABELS[check.outcome]}  ${titleOf(check).padEnd(width)}  ${detail}`);
  }
  const assumed = report.checks.filter((check) => check.assumes !== null);
  if (assumed.length > 0) lines.push('', ...assumed.map((check) => `Assumed (${check.title}): ${check.assumes}`));
  const count = (outcome: ReceiverCheckResult['outcome']) =>
    report.checks.filter((check) => check.outcome === outcome).length;
  const skipped = count('skipped');
  lines.push(
    '',
    `${report.ok ? 'The receiver passed' : 'The receiver failed'}: ${count('fail')} failed, ${count('warn')} warned, ${count('pass')} passed${skipped > 0 ? `, ${skipped} skipped` : ''}.`,
    '',
  );
  return lines.join('\n');
}

function titleOf(check: ReceiverCheckResult): string {
  return check.name === 'large_body' && check.requests[0] !== undefined
    ? `${check.title} (${Math.round(check.requests[0].bytes / 1024)} KiB)`
    : check.title;
}

function formatAnswer(request: ReceiverCheckRequest): string {
  return `${request.status === null ? 'no answer' : String(request.status)} in ${formatMs(request.durationMs)}`;
}
