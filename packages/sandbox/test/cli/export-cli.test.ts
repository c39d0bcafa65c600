import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/index';
import { receiptBody } from '../support/receipt-body';
import { killIfRunning, spawnCli, waitForApiUrl, type CliProcess } from './spawn-cli';

// `fflkit-sandbox export`, spawned: an account built through the API, exported, loaded with
// --fixtures into a fresh sandbox, and exported again, equal.

let dir: string;
const running: CliProcess[] = [];
const started: RunningSandbox[] = [];

const cli = (args: readonly string[], env: NodeJS.ProcessEnv = {}): CliProcess => {
  const process = spawnCli(args, dir, env);
  running.push(process);
  return process;
};

/** Runs a command of the CLI to its end. */
async function run(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const process = cli(args, env);
  const { code } = await process.exit;
  return { code, stdout: process.stdout(), stderr: process.stderr() };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-export-'));
});

afterEach(async () => {
  for (const process of running.splice(0)) await killIfRunning(process);
  await Promise.all(started.splice(0).map((sandbox) => sandbox.stop()));
  await rm(dir, { recursive: true, force: true });
});

/** A sandbox with an account made through the API: books, receipts (one disposed, one with E4473 data and a document), an endpoint. */
async function builtByHand(): Promise<{ sandbox: RunningSandbox; token: string }> {
  const sandbox = await startSandbox();
  started.push(sandbox);
  const { token } = await sandbox.createAccount({ name: 'Hand Built Arms', books: ['Consignment'] });
  const api = (method: string, path: string, body: unknown) =>
    fetch(`${sandbox.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }).then(async (response) => (await response.json()) as { data: { id: number } });
  const first = await api('POST', '/receipts', receiptBody(1));
  await api('POST', '/receipts', {
    ...JSON.parse(receiptBody(2)),
    book: 'Consignment',
    ffl_license: null,
    address: '100 Example Way',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
  });
  await api('POST', `/receipts/${first.data.id}/dispose`, {
    disposition_date: '2025-03-15',
    disposed_to: 'Jordan Example',
    form_4473_serial: 'F-000123',
    sold_price: 499.99,
  });
  await sandbox.receipts.putE4473(token, first.data.id, {
    form_4473_serial: 'F-000123',
    transferee_name: 'Jordan Example',
    nics_transaction_number: '1ABCD2EFG',
    nics_result: 'proceed',
    completed_at: '2025-03-15T16:20:00Z',
  });
  await sandbox.receipts.attachDocument(token, first.data.id, {
    name: 'invoice.pdf',
    mime_type: 'application/pdf',
    size: 48_213,
  });
  await api('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['receipt.created', 'receipt.disposed'] });
  await sandbox.clock.advance(token, 3_600);
  return { sandbox, token };
}

describe('fflkit-sandbox export', () => {
  it('round-trips: export, --fixtures into a fresh sandbox, export again, equal (JSON and YAML)', async () => {
    const { sandbox, token } = await builtByHand();
    const json = await run(['export', '--token', token, '--url', sandbox.url]);
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const exported = JSON.parse(json.stdout) as {
      accounts: { receipts: unknown[]; webhooks: unknown[]; clock_offset_seconds: number }[];
    };
    expect(exported.accounts[0]).toMatchObject({
      name: 'Hand Built Arms',
      books: ['Consignment'],
      clock_offset_seconds: 3_600,
    });
    expect(exported.accounts[0]!.receipts).toHaveLength(2);
    expect(exported.accounts[0]!.webhooks).toHaveLength(1);

    const yaml = await run(['export', '--out', 'kept.yaml'], {
      FFLKIT_SANDBOX_TOKEN: token,
      FFLKIT_SANDBOX_URL: sandbox.url,
    });
    expect(yaml).toEqual({
      code: 0,
      stdout: `Wrote the account Hand Built Arms (2 receipts) to ${join(dir, 'kept.yaml')}\n`,
      stderr: '',
    });
    expect(parse(await readFile(join(dir, 'kept.yaml'), 'utf8'))).toEqual(exported);
    expect((await stat(join(dir, 'kept.yaml'))).mode & 0o777).toBe(0o600);

    const fresh = cli(['--memory', '--port', '0', '--quiet', '--fixtures', 'kept.yaml']);
    const origin = (await waitForApiUrl(fresh)).replace('/rest/v1', '');
    const again = await run(['export', '--token', token, '--url', origin]);
    expect(again).toEqual({ code: 0, stdout: json.stdout, stderr: '' });
  });

  it('writes JSON to an --out file of another name', async () => {
    const { sandbox, token } = await builtByHand();
    expect((await run(['export', '--token', token, '--url', sandbox.url, '--out', 'kept.fixtures'])).code).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'kept.fixtures'), 'utf8'))).toMatchObject({
      accounts: [{ name: 'Hand Built Arms' }],
    });
  });

  it('exits 1 for a token the sandbox refuses, or an --out folder that does not exist', async () => {
    const { sandbox, token } = await builtByHand();
    const refused = await run(['export', '--token', 'sbx_unknown', '--url', sandbox.url]);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: `fflkit-sandbox export: the sandbox at ${sandbox.url} refused the token: it is unknown there, revoked, or of a deleted account; pass a token of the account with --token\n`,
    });
    const nowhere = await run(['export', '--token', token, '--url', sandbox.url, '--out', 'missing/kept.json']);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toMatch(
      new RegExp(
        `^fflkit-sandbox export: cannot write ${join(dir, 'missing', 'kept.json')} \\(.*ENOENT.*\\): check that its folder exists`,
      ),
    );
  });

  it('exits 1 when no sandbox answers, and 2 without a token', async () => {
    expect(await run(['export', '--token', 'sbx_x', '--url', 'http://127.0.0.1:1'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'fflkit-sandbox export: no sandbox answers at http://127.0.0.1:1: start one (fflkit-sandbox), or pass its address with --url\n',
    });
    const missing = await run(['export']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^fflkit-sandbox export: --token is required \(or FFLKIT_SANDBOX_TOKEN\)/);
  });
});
