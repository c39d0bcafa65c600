import { describe, expect, it } from 'vitest';
import { formatReceiverReport, type ReceiverCheckReport, type ReceiverCheckRequest } from '../../src/index';

const request = (status: number | null, durationMs: number, bytes = 400): ReceiverCheckRequest => ({
  event: 'receipt.created',
  deliveryId: '5a7c9e1b-3d5f-4a6b-8c0d-2e4f6a8b0c1d',
  signature: 'valid',
  bytes,
  status,
  error: status === null ? 'No answer within 5 seconds.' : null,
  durationMs,
});

describe('formatReceiverReport(report)', () => {
  it('writes a line per check with its answers and times, the reason and fix where it did not pass, what it assumes and a count', () => {
    const report: ReceiverCheckReport = {
      url: 'http://127.0.0.1:3000/webhooks',
      ok: false,
      timeoutMs: 5000,
      warnAfterMs: 1000,
      checks: [
        {
          name: 'ping',
          title: 'signed ping',
          outcome: 'warn',
          requests: [request(200, 1500)],
          reason: 'It took 1.5 s.',
          fix: 'Answer sooner.',
          assumes: null,
        },
        {
          name: 'forged_signature',
          title: 'forged signature',
          outcome: 'fail',
          requests: [request(200, 3)],
          reason: 'It answered 200.',
          fix: 'Verify.',
          assumes: null,
        },
        {
          name: 'duplicate_delivery',
          title: 'same delivery twice',
          outcome: 'pass',
          requests: [request(200, 2), request(200, 1)],
          reason: null,
          fix: null,
          assumes: 'Deduplicates.',
        },
        {
          name: 'large_body',
          title: 'large body',
          outcome: 'fail',
          requests: [request(null, 5000, 262_200)],
          reason: 'No answer within 5 seconds.',
          fix: 'Answer sooner.',
          assumes: null,
        },
        {
          name: 'out_of_order',
          title: 'pair out of order',
          outcome: 'skipped',
          requests: [],
          reason: 'Not run.',
          fix: null,
          assumes: null,
        },
      ],
    };
    expect(formatReceiverReport(report)).toBe(
      [
        'Checking the webhook receiver at http://127.0.0.1:3000/webhooks',
        '(each answer within 5 s, as the service waits; a warning past 1 s)',
        '',
        'WARN  signed ping           200 in 1.5 s: It took 1.5 s. Fix: Answer sooner.',
        'FAIL  forged signature      200 in 3 ms: It answered 200. Fix: Verify.',
        'PASS  same delivery twice   200 in 2 ms, then 200 in 1 ms',
        'FAIL  large body (256 KiB)  no answer in 5 s: No answer within 5 seconds. Fix: Answer sooner.',
        'SKIP  pair out of order     Not run.',
        '',
        'Assumed (same delivery twice): Deduplicates.',
        '',
        'The receiver failed: 2 failed, 1 warned, 1 passed, 1 skipped.',
        '',
      ].join('\n'),
    );
  });
});
