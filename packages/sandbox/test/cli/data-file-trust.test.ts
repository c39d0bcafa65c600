import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { receiptBody } from '../support/receipt-body';
import { killIfRunning, spawnCli, waitForApiUrl, type CliProcess } from './spawn-cli';

// What a data file guards against, through the real CLI: a second process on it, files written
// by the previous release, and a journal damaged or lost while the sandbox was down.

let dir: string;
let file: string;
const running: CliProcess[] = [];

const start = (args: readonly string[] = []): CliProcess => {
  const cli = spawnCli(['--data', file, '--port', '0', '--quiet', '--rate-limit', '0', ...args], dir);
  running.push(cli);
  return cli;
};

const token = async (cli: CliProcess): Promise<string> => {
  const [, value] = await cli.waitFor(/Authorization: Bearer (sbx_[^"\s]+)"/);
  return value!;
};

const post = (apiUrl: string, bearer: string, n: number) =>
  fetch(`${apiUrl}/receipts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: receiptBody(n),
  });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-data-file-trust-'));
  file = join(dir, 'sandbox.json');
});

afterEach(async () => {
  for (const cli of running.splice(0)) await killIfRunning(cli);
  await rm(dir, { recursive: true, force: true });
});

describe('one data file, one sandbox', () => {
  it('refuses a second CLI on the same data file, naming the file and the process that holds it', async () => {
    const first = start();
    await waitForApiUrl(first);
    const second = start();
    expect(await second.exit).toEqual({ code: 1, signal: null });
    expect(second.stderr()).toContain(`the data file ${file} is in use by another sandbox: process ${first.child.pid}`);
    expect(second.stderr()).toContain(`${file}.lock`);
  });

  it('takes over the lock of a sandbox killed with SIGKILL, and has every acknowledged write', async () => {
    const first = start();
    const apiUrl = await waitForApiUrl(first);
    const bearer = await token(first);
    for (let n = 1; n <= 10; n += 1) expect((await post(apiUrl, bearer, n)).status).toBe(201);
    first.child.kill('SIGKILL');
    await first.exit;
    const second = start();
    const secondUrl = await waitForApiUrl(second);
    const listed = (await (
      await fetch(`${secondUrl}/receipts`, { headers: { authorization: `Bearer ${bearer}` } })
    ).json()) as {
      meta: { total: number };
    };
    expect(listed.meta.total).toBe(10);
    expect(JSON.parse(await readFile(`${file}.lock`, 'utf8'))).toMatchObject({ pid: second.child.pid });
  });

  it('releases the lock on SIGTERM', async () => {
    const cli = start();
    await waitForApiUrl(cli);
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toMatchObject({ code: 0 });
    expect(await readdir(dir)).toEqual(['sandbox.json']);
  });
});

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'format-1');

describe('a data file written by the previous release (format 1)', () => {
  it.each([
    ['stopped cleanly', 'stopped', 'sbx_TWiwnW8IqK4kEOyL10BT4TeQS8rQxGET'],
    ['killed with changes in its journal', 'killed', 'sbx_Vggo7DfGwr4mXHPkr8LBPB8WSMoJoYPS'],
  ])('opens when %s, rewritten in format 2, with every record and its token', async (_, folder, bearer) => {
    await cp(join(FIXTURES, folder), dir, { recursive: true });
    const cli = start();
    const apiUrl = await waitForApiUrl(cli);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      format: 2,
      books: [
        { name: 'Main', last_record: 2 },
        { name: 'Consignment', last_record: 1 },
      ],
    });
    expect((await readdir(dir)).sort()).toEqual(['sandbox.json', 'sandbox.json.lock']);
    const auth = { headers: { authorization: `Bearer ${bearer}` } };
    const books = (await (await fetch(`${apiUrl}/books`, auth)).json()) as {
      data: { name: string; record_count: number }[];
    };
    expect(books.data.map((book) => [book.name, book.record_count])).toEqual([
      ['Main', 1],
      ['Consignment', 1],
    ]);
    expect((await fetch(`${apiUrl}/receipts/2`, auth)).status).toBe(404);
    const next = (await (await post(apiUrl, bearer, 9)).json()) as { data: { id: number; record: number } };
    expect(next.data).toMatchObject({ id: 4, record: 3 });
  });

  it('refuses a data file of a newer format, naming both formats', async () => {
    await writeFile(file, JSON.stringify({ format: 3, version: 1 }));
    const cli = start();
    expect(await cli.exit).toMatchObject({ code: 1 });
    expect(cli.stderr()).toContain(
      `the data file ${file} is of format 3, newer than format 2, the newest this version of the sandbox reads`,
    );
    expect(await readdir(dir)).toEqual(['sandbox.json']);
  });
});

describe('a journal damaged or lost while the sandbox was down', () => {
  /** A sandbox killed with three receipts in its journal. */
  async function crashed(): Promise<void> {
    const cli = start();
    const apiUrl = await waitForApiUrl(cli);
    const bearer = await token(cli);
    for (let n = 1; n <= 3; n += 1) await post(apiUrl, bearer, n);
    cli.child.kill('SIGKILL');
    await cli.exit;
  }

  const refusal = async (): Promise<string> => {
    const cli = start();
    expect(await cli.exit).toMatchObject({ code: 1 });
    return cli.stderr();
  };

  it('stops the start when the segment being written is missing', async () => {
    await crashed();
    await rm(`${file}.journal.1`);
    expect(await refusal()).toContain(`the journal ${file}.journal.1 is missing`);
  });

  it('stops the start when a segment was emptied', async () => {
    await crashed();
    await writeFile(`${file}.journal.1`, '');
    expect(await refusal()).toContain(`the journal ${file}.journal.1 is damaged: it is empty`);
  });

  it('stops the start when a segment was overwritten with NUL bytes', async () => {
    await crashed();
    const size = (await readFile(`${file}.journal.1`)).length;
    await writeFile(`${file}.journal.1`, Buffer.alloc(size));
    expect(await refusal()).toContain(`the journal ${file}.journal.1 is damaged`);
  });

  it('stops the start when the sequences are lower than the records they number', async () => {
    await crashed();
    const cli = start();
    await waitForApiUrl(cli);
    cli.child.kill('SIGTERM');
    await cli.exit;
    const data = JSON.parse(await readFile(file, 'utf8')) as { sequences: { receipt: number } };
    data.sequences.receipt = 1;
    await writeFile(file, JSON.stringify(data));
    expect(await refusal()).toContain(
      `the data file ${file} is damaged: cannot restore the snapshot: the receipt sequence is at 1, below the id of receipt 2`,
    );
  });

  it('stops the start on a null record, naming the file', async () => {
    await crashed();
    const cli = start();
    await waitForApiUrl(cli);
    cli.child.kill('SIGTERM');
    await cli.exit;
    const data = JSON.parse(await readFile(file, 'utf8')) as { audit: unknown[] };
    data.audit.push(null);
    await writeFile(file, JSON.stringify(data));
    expect(await refusal()).toContain(
      `the data file ${file} is damaged: cannot restore the snapshot: audit entry at position 3 of audit is null`,
    );
  });
});
