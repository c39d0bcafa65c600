import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index';
import { killIfRunning, spawnCli, type CliProcess } from './spawn-cli';

// The drift guard's commands in the bundled CLI, spawned as a user runs them: the contract and
// its validators travel inside the one-file program, and Ctrl-C stops the proxy with its report.

const TOKEN = 'sbx_driftcli000000000000000000001';

let dir: string;
let sandbox: RunningSandbox;
const running: CliProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-drift-cli-'));
  sandbox = await startSandbox({ fixtures: { accounts: [{ tokens: [{ token: TOKEN }] }] } });
});
afterAll(async () => {
  await sandbox.stop();
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const process of running.splice(0)) await killIfRunning(process);
});

function cli(args: readonly string[]): CliProcess {
  const process = spawnCli(args, dir);
  running.push(process);
  return process;
}

describe('the bundled CLI', { timeout: 60_000 }, () => {
  it('lists the choices as JSON', async () => {
    const choices = cli(['choices', '--json']);
    expect(await choices.exit).toEqual({ code: 0, signal: null });
    const listed = JSON.parse(choices.stdout()) as { choices: Array<{ id: string }> };
    expect(listed.choices.map((choice) => choice.id)).toContain('pagination.per-page');
  });

  it('runs the proxy until Ctrl-C, then writes its report', async () => {
    const proxy = cli(['proxy', '--upstream', sandbox.url, '--port', '0', '--report', 'report.json']);
    const [, apiUrl] = await proxy.waitFor(/^FFLKit drift proxy listening on (\S+)$/m);
    const answer = await fetch(`${apiUrl}/books`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
    await answer.text();
    proxy.child.kill('SIGINT');
    expect(await proxy.exit).toEqual({ code: 0, signal: null });
    expect(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'))).toEqual({
      exchanges: 1,
      deliveries: 0,
      violations: [],
    });
  });

  it('probes the sandbox and exits 0', async () => {
    const conformance = cli(['conformance', '--base-url', sandbox.apiUrl, '--token', TOKEN]);
    expect(await conformance.exit).toEqual({ code: 0, signal: null });
    expect(conformance.stdout()).toMatch(/\n\d+ confirmed, 0 contradicted, \d+ not probed\.\n$/);
  });
});
