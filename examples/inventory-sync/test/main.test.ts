import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main';
import { captureStream } from './capture-stream';
import { receiptBody, useSandbox } from './sandbox-account';
import { temporaryFolder } from './temporary-folder';

const newAccount = useSandbox();

describe('main(args, context): the inventory-sync command', () => {
  it('syncs, writes the CSV, and reports progress and a summary as plain lines when stderr is not a terminal', async () => {
    const { logbook, token, baseUrl } = await newAccount();
    await logbook.receipts.create(receiptBody());
    const folder = await temporaryFolder();
    const out = join(folder, 'book.csv');
    const stderr = captureStream();

    const code = await main(['--out', out, '--checkpoint', join(folder, 'state.json')], {
      env: { FFLKIT_TOKEN: token, FFLKIT_BASE_URL: baseUrl },
      stdout: captureStream(),
      stderr,
    });

    expect(code).toBe(0);
    expect(stderr.text()).toBe(
      [
        'inventory-sync: pulling changes (up to 1)...',
        'inventory-sync: pulling changes: 1 done',
        `inventory-sync: pulled 1 change (1 new, 0 updated); wrote 1 row to ${out}`,
        '',
      ].join('\n'),
    );
    expect((await readFile(out, 'utf8')).split('\n')).toHaveLength(3);
  });

  it('draws a progress bar when stderr is a terminal', async () => {
    const { logbook, token, baseUrl } = await newAccount();
    await logbook.receipts.create(receiptBody());
    const folder = await temporaryFolder();
    const stderr = captureStream({ isTTY: true });

    const code = await main(['--out', '-', '--checkpoint', join(folder, 'state.json')], {
      env: { FFLKIT_TOKEN: token, FFLKIT_BASE_URL: baseUrl },
      stdout: captureStream(),
      stderr,
    });

    expect(code).toBe(0);
    expect(stderr.text()).toContain('pulling changes        ████████████████████████████████████████ 1/1');
    expect(stderr.text()).not.toContain('(up to 1)');
  });

  it('writes the CSV to stdout for --out -', async () => {
    const { logbook, token, baseUrl } = await newAccount();
    await logbook.receipts.create(receiptBody());
    const stdout = captureStream();
    const stderr = captureStream();

    const code = await main(
      ['--base-url', baseUrl, '--out', '-', '--checkpoint', join(await temporaryFolder(), 'state.json')],
      {
        env: { FFLKIT_TOKEN: token },
        stdout,
        stderr,
      },
    );

    expect(code).toBe(0);
    expect(stdout.text()).toMatch(/^Manufacturer,Importer,Model,.*\nExample Arms Co\.,,EX-9 Compact,EXA0000001,/);
    expect(stderr.text()).toContain('wrote 1 row to stdout');
  });

  it('exits with 1 and tells to check the token when the service answers 401', async () => {
    const { baseUrl } = await newAccount();
    const stderr = captureStream();

    const code = await main(['--checkpoint', join(await temporaryFolder(), 'state.json')], {
      env: { FFLKIT_TOKEN: 'sbx_not_a_token', FFLKIT_BASE_URL: baseUrl },
      stdout: captureStream(),
      stderr,
    });

    expect(code).toBe(1);
    expect(stderr.text()).toContain(
      'inventory-sync: the service refused the token (401): check FFLKIT_TOKEN or --token',
    );
  });

  it('exits with 2 and says what to set when there is no token', async () => {
    const stderr = captureStream();

    const code = await main([], { env: {}, stdout: captureStream(), stderr });

    expect(code).toBe(2);
    expect(stderr.text()).toBe(
      'inventory-sync: no API token: set FFLKIT_TOKEN or pass --token (the sandbox prints one when it starts; `curl -X POST <sandbox>/_sandbox/accounts` makes another)\n',
    );
  });

  it('prints the help on stdout for --help and exits with 0', async () => {
    const stdout = captureStream();

    expect(await main(['--help'], { env: {}, stdout, stderr: captureStream() })).toBe(0);
    expect(stdout.text()).toMatch(/^Usage: inventory-sync \[options\]/);
  });

  it('exits with 130 and says the next run resumes when interrupted', async () => {
    const { logbook, token, baseUrl } = await newAccount();
    await logbook.receipts.create(receiptBody());
    const stderr = captureStream();

    const code = await main(['--checkpoint', join(await temporaryFolder(), 'state.json')], {
      env: { FFLKIT_TOKEN: token, FFLKIT_BASE_URL: baseUrl },
      stdout: captureStream(),
      stderr,
      signal: AbortSignal.abort(),
    });

    expect(code).toBe(130);
    expect(stderr.text()).toContain(
      'inventory-sync: interrupted; what was pulled is saved, and the next run resumes from there',
    );
  });
});
