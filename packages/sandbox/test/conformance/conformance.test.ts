import { afterEach, describe, expect, it } from 'vitest';
import { CONTRACT_CHOICES } from '../../src/contract-check/choices';
import { type RunningSandbox, runConformance, startSandbox } from '../../src/index';
import { conformanceAccount } from '../support/conformance-account';
import { DRIFTS, type DriftingUpstream, startDriftingUpstream } from '../support/drifting-upstream';

// The conformance probe against the sandbox, which keeps every choice it can be probed for, and
// against the sandbox behind a transform that breaks the contract, each break contradicted. The
// run's waits (a receipt read again after a delay) move the account's clock instead of the wall
// clock, so that nothing sleeps. The rate limit counts real time, which the clock does not move.

const TOKEN = 'sbx_conformance000000000000000001';
const READ_TOKEN = 'sbx_conformanceread00000000000001';

const FIXTURES = conformanceAccount('Conformance', TOKEN, READ_TOKEN);

let sandbox: RunningSandbox;
let upstream: DriftingUpstream | undefined;

afterEach(async () => {
  await upstream?.stop();
  upstream = undefined;
  await sandbox?.stop();
});

/** Moves the account's clock instead of waiting (the rate limit, which counts real time, stays as it is). */
async function advance(ms: number): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/clock/advance`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ seconds: Math.max(1, Math.ceil(ms / 1000)) }),
  });
}

/** The ids of the choices of a report with a status. */
function ids(report: Awaited<ReturnType<typeof runConformance>>, status: string): string[] {
  return report.choices.filter((choice) => choice.status === status).map((choice) => choice.id);
}

describe('runConformance()', { timeout: 60_000 }, () => {
  it('confirms every choice it probes against the sandbox, with the probes that write and a read-only token', async () => {
    sandbox = await startSandbox({ fixtures: FIXTURES });
    const report = await runConformance({
      baseUrl: sandbox.apiUrl,
      token: TOKEN,
      readToken: READ_TOKEN,
      allowWrites: true,
      wait: advance,
    });

    expect(report.choices.filter((choice) => choice.status === 'contradicted')).toEqual([]);
    expect(report.violations).toEqual([]);
    expect(report.notes).toEqual([]);
    // What a run can probe, it confirms: the choices left are those no probe can see from outside.
    const unprobed = report.choices.filter((choice) => choice.status === 'not-probed');
    expect(unprobed.map((choice) => choice.id).sort()).toEqual(
      CONTRACT_CHOICES.filter((choice) => choice.probe === 'none' || choice.probe === 'traffic')
        .map((choice) => choice.id)
        .filter(
          (id) =>
            !['rate-limit.retry-after', 'rate-limit.reset'].includes(id) || !ids(report, 'confirmed').includes(id),
        )
        .sort(),
    );
    expect(report.summary.confirmed).toBe(ids(report, 'confirmed').length);
    // Each confirmed choice names what confirmed it.
    for (const choice of report.choices.filter((entry) => entry.status === 'confirmed')) {
      expect(choice.evidence.length).toBeGreaterThan(0);
    }
    // The run cleaned up after itself: its receipts are deleted and its endpoint is gone.
    const receipts = (await (
      await fetch(`${sandbox.apiUrl}/receipts?per_page=200`, { headers: { authorization: `Bearer ${READ_TOKEN}` } })
    ).json()) as {
      data: Array<{ serial_number: string }>;
    };
    expect(receipts.data.map((receipt) => receipt.serial_number)).toEqual(['SBX0000001', 'SBX0000002']);
    const webhooks = (await (
      await fetch(`${sandbox.apiUrl}/webhooks`, { headers: { authorization: `Bearer ${READ_TOKEN}` } })
    ).json()) as {
      data: unknown[];
    };
    expect(webhooks.data).toEqual([]);
  });

  it('with read-only probes, writes nothing and says which choices need the probes that write', async () => {
    sandbox = await startSandbox({ fixtures: FIXTURES });
    const before = await (
      await fetch(`${sandbox.url}/_sandbox/fixtures`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).text();
    const report = await runConformance({ baseUrl: sandbox.apiUrl, token: TOKEN, wait: advance });

    expect(ids(report, 'contradicted')).toEqual([]);
    expect(report.writes).toBe(false);
    const needsWrites = report.choices.filter((choice) => choice.reason?.includes('--allow-writes'));
    expect(needsWrites.map((choice) => choice.id).sort()).toEqual(
      CONTRACT_CHOICES.filter((choice) => choice.probe === 'write')
        .map((choice) => choice.id)
        .sort(),
    );
    expect(report.choices.find((choice) => choice.id === 'errors.forbidden-message')?.reason).toContain('--read-token');
    expect(
      await (await fetch(`${sandbox.url}/_sandbox/fixtures`, { headers: { authorization: `Bearer ${TOKEN}` } })).text(),
    ).toBe(before);
  });

  it('contradicts each break of a drifting service, with its evidence', async () => {
    sandbox = await startSandbox({ fixtures: FIXTURES });
    upstream = await startDriftingUpstream(sandbox.url, DRIFTS);
    const report = await runConformance({
      baseUrl: `${upstream.url}/rest/v1`,
      token: TOKEN,
      readToken: READ_TOKEN,
      allowWrites: true,
      wait: advance,
    });

    // Each break, and what follows from it alone: the 404 of another shape has no message.
    expect(ids(report, 'contradicted')).toEqual([
      'errors.body',
      'errors.not-found-message',
      'pagination.envelope',
      'pagination.meta',
      'pagination.per-page',
      'rate-limit.headers',
      'receipts.delete',
      'receipts.resource',
      'receipts.visible-at-once',
      'webhooks.deleted-data',
    ]);
    const late = report.choices.find((choice) => choice.id === 'receipts.visible-at-once');
    expect(late?.evidence[0]?.expected).toMatch(/^200 right after the 201; it was visible after 2 more reads/);
    expect(late?.evidence[0]?.request).toMatch(/^GET \/receipts\/\d+ \(with the token\)$/);
    expect(late?.evidence[0]?.answer.status).toBe(404);
    // The delivery's header that the contract does not name breaks none of its choices.
    expect(report.violations.map((violation) => violation.pointer)).toContain('/headers/x-svc-attempt');
    expect(report.summary.contradicted).toBe(10);
  });
});
