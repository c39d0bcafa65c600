import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { receiptBody, useSandbox } from './sandbox-account';
import { temporaryFolder } from './temporary-folder';

const execFileAsync = promisify(execFile);
// As `pnpm start` runs it: with tsx, since Node 20 cannot run TypeScript by itself. The loader is
// given by its URL so that the command can run in a folder of its own, for its default files.
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const cli = join(import.meta.dirname, '..', 'src', 'cli.ts');
const newAccount = useSandbox();
// Each test starts Node with tsx, which compiles the command at each start: past vitest's default
// 5 s on a busy CI machine.
const PROCESS_TIMEOUT_MS = 20_000;

function runCli(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  return execFileAsync(process.execPath, ['--import', tsx, cli, ...args], { cwd, env: { ...process.env, ...env } });
}

describe('the inventory-sync command in its own process', { timeout: PROCESS_TIMEOUT_MS }, () => {
  it('syncs with the token and base URL of the environment into its default files, and exits with 0', async () => {
    const { logbook, token, baseUrl } = await newAccount();
    await logbook.receipts.create(receiptBody());
    const folder = await temporaryFolder();

    const { stderr } = await runCli([], folder, { FFLKIT_TOKEN: token, FFLKIT_BASE_URL: baseUrl });

    expect(stderr).toContain('inventory-sync: pulled 1 change (1 new, 0 updated); wrote 1 row to bound-book.csv');
    expect((await readdir(folder)).sort()).toEqual(['.sync-checkpoint.json', 'bound-book.csv']);
    expect(await readFile(join(folder, 'bound-book.csv'), 'utf8')).toMatch(/^Manufacturer,.*\nExample Arms Co\.,/);
  });

  it('exits with 2 and a usage message for an unknown flag', async () => {
    const failure: unknown = await runCli(['--nope'], await temporaryFolder()).then(
      () => 'exited with 0',
      (error: unknown) => error,
    );

    expect(failure).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("inventory-sync: Unknown option '--nope'"),
    });
  });
});
