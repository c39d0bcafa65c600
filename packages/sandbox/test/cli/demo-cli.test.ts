import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_RECEIPTS, planDemo } from '../../src/demo/demo-account';
import { killIfRunning, spawnCli, waitForApiUrl, type CliProcess } from './spawn-cli';

// `fflkit-sandbox --demo`, spawned: the banner's token works, and a seed gives the same account.

let dir: string;
const running: CliProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-demo-'));
});
afterEach(async () => {
  for (const process of running.splice(0)) await killIfRunning(process);
  await rm(dir, { recursive: true, force: true });
});

async function started(args: readonly string[]): Promise<{ process: CliProcess; apiUrl: string; token: string }> {
  const process = spawnCli(args, dir);
  running.push(process);
  const apiUrl = await waitForApiUrl(process);
  await process.waitFor(/Press Ctrl-C to stop\.\n$/);
  const [, token] = process.stdout().match(/Its token, the same for the same seed:\n\n {2}(sbx_\S+)\n/)!;
  return { process, apiUrl, token: token! };
}

const total = async (apiUrl: string, token: string, query = '') => {
  const response = await fetch(`${apiUrl}/receipts?per_page=1${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { meta: { total: number } }).meta.total;
};

describe('fflkit-sandbox --demo', () => {
  it('adds the demo account of seed 1 and prints its token, which works, instead of a new dealer account', async () => {
    const { process, apiUrl, token } = await started(['--demo', '--memory', '--port', '0', '--quiet']);
    expect(token).toBe(planDemo(1).token);
    expect(await total(apiUrl, token)).toBe(DEMO_RECEIPTS);
    expect(await total(apiUrl, token, '&status=disposed')).toBe(planDemo(1).disposed);
    expect(process.stdout()).toContain(
      'Demo account Ridgeline Firearms & Outfitters (demo) (seed 1):\n  books Main, Consignment, Gunsmithing, Rentals; 3000 receipts, ',
    );
    expect(process.stdout()).not.toContain('Made a dealer account');
  });

  it('gives the same account for the same seed on a data file, made once: a restart finds it there', async () => {
    const args = ['--demo', '--seed', '5', '--data', 'demo.json', '--port', '0', '--quiet'];
    const first = await started(args);
    expect(first.token).toBe(planDemo(5).token);
    first.process.child.kill('SIGTERM');
    expect(await first.process.exit).toEqual({ code: 0, signal: null });

    const second = await started(args);
    expect(second.token).toBe(first.token);
    expect(second.process.stdout()).toContain('(seed 5), from the data file:');
    expect(await total(second.apiUrl, second.token)).toBe(DEMO_RECEIPTS);
  });
});
