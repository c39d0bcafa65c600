import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DataFileError } from '../../src/persistence/data-file';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { injectAccount, injectGetter, injectReceipt, listReceipts } from '../support/sandbox-api';
import { killableFiles } from '../support/killable-files';
import { abandonLock, canonical, journalFiles, journalLines, readStateOnDisk } from '../support/state-on-disk';

let dir: string;
let file: string;
const opened: Sandbox[] = [];

/** The files of the sandboxes a test opens, which it closes for them as SIGKILL would. */
const killable = killableFiles();

/** Opens a sandbox on the test's data file, or in memory when `data` is `null`. */
const open = async (data: string | null = file): Promise<Sandbox> => {
  const sandbox = await createSandbox({
    host: '127.0.0.1',
    port: 0,
    data: data ?? undefined,
    rateLimit: 0,
    files: killable.files,
  });
  opened.push(sandbox);
  return sandbox;
};

const readDataFile = async (): Promise<{ text: string; value: unknown }> => {
  const text = await readFile(file, 'utf8');
  return { text, value: JSON.parse(text) as unknown };
};

/** Makes a change of every kind the journal records, through the API. */
async function changeEverything(sandbox: Sandbox, token: string): Promise<void> {
  const auth = { authorization: `Bearer ${token}` };
  const inject = async (method: string, url: string, payload?: object) => {
    const response = await sandbox.server.inject({ method, url, headers: auth, ...(payload && { payload }) });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.payload}`);
    return JSON.parse(response.payload || 'null') as { data: { id: number } };
  };
  // Loopback port 9 refuses at once: the clock advance below makes real delivery attempts.
  await inject('POST', '/rest/v1/webhooks', { url: 'http://127.0.0.1:9/a', events: ['*'] });
  const doomed = await inject('POST', '/rest/v1/webhooks', { url: 'http://127.0.0.1:9/b', events: ['*'] });
  const first = (await injectReceipt(sandbox.server, token, 1)).receipt;
  const second = (await injectReceipt(sandbox.server, token, 2)).receipt;
  await injectReceipt(sandbox.server, token, 3);
  await inject('PUT', `/rest/v1/receipts/${first.id}`, { model: 'EX-9 Full Size' });
  await inject('POST', `/rest/v1/receipts/${first.id}/dispose`, {
    disposition_date: '2025-03-14',
    disposed_to: 'John Q. Example',
    form_4473_serial: '2025-000123',
  });
  await inject('DELETE', `/rest/v1/receipts/${second.id}`);
  await inject('DELETE', `/rest/v1/webhooks/${doomed.data.id}`);
  await inject('POST', `/_sandbox/receipts/${first.id}/documents`, {
    name: 'a.pdf',
    mime_type: 'application/pdf',
    size: 1,
  });
  await inject('POST', '/_sandbox/books', { name: 'Consignment' });
  const extra = (await inject('POST', '/_sandbox/tokens', { permissions: ['read'] })) as unknown as {
    data: { id: number };
  };
  await inject('DELETE', `/_sandbox/tokens/${extra.data.id}`);
  await inject('POST', '/_sandbox/clock/advance', { seconds: 3600 });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-persistence-'));
  file = join(dir, 'nested', 'dirs', 'sandbox.json');
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((sandbox) => sandbox.stop()));
  await rm(dir, { recursive: true, force: true });
});

describe('a sandbox on a data file', () => {
  it('starts fresh and writes nothing but its lock until something changes', async () => {
    const sandbox = await open();
    expect(sandbox.fresh).toBe(true);
    await sandbox.server.inject({ method: 'GET', url: '/rest/v1/books' });
    expect(await readdir(dirname(file))).toEqual(['sandbox.json.lock']);
  });

  it('writes a new data file whole at its first change, with no journal', async () => {
    const sandbox = await open();
    await injectAccount(sandbox.server);
    expect((await readDataFile()).value).toEqual(JSON.parse(JSON.stringify(sandbox.core.snapshot())));
    expect(await journalFiles(file)).toEqual([]);
  });

  it('has a change on disk by the time it answers it: one journal line past the data file', async () => {
    const sandbox = await open();
    const token = await injectAccount(sandbox.server);
    const { status, receipt } = await injectReceipt(sandbox.server, token, 1);
    expect(status).toBe(201);
    expect((await readDataFile()).text).not.toContain(receipt.serial_number);
    const lines = await journalLines(file);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      v: 2,
      base: 1,
      sequences: { receipt: 1, audit: 1 },
      changes: [
        { op: 'upsert', collection: 'receipts', record: { id: receipt.id, serial_number: receipt.serial_number } },
        { op: 'upsert', collection: 'books', record: { name: 'Main', last_record: 1 } },
        { op: 'upsert', collection: 'audit', record: { receipt_id: receipt.id } },
      ],
    });
    expect(canonical(await readStateOnDisk(file))).toEqual(canonical(sandbox.core.snapshot()));
  });

  it('keeps on disk the state of every kind of change, as core.snapshot() has it', async () => {
    const sandbox = await open();
    const token = await injectAccount(sandbox.server);
    await changeEverything(sandbox, token);
    const onDisk = await readStateOnDisk(file);
    expect(onDisk).toMatchObject({ version: sandbox.core.version, sequences: sandbox.core.snapshot()['sequences'] });
    expect(canonical(onDisk)).toEqual(canonical(sandbox.core.snapshot()));
  });

  it('groups 200 concurrent writes into a few appends, each answered once on disk', async () => {
    const sandbox = await open();
    const token = await injectAccount(sandbox.server);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, n) => injectReceipt(sandbox.server, token, n)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(200).fill(201));
    const lines = await journalLines(file);
    expect(lines.length).toBeLessThanOrEqual(10);
    const serials = new Set(
      lines.flatMap((line) =>
        (line['changes'] as { collection: string; record: { serial_number: string } }[])
          .filter((change) => change.collection === 'receipts')
          .map((change) => change.record.serial_number),
      ),
    );
    for (const { receipt } of answers) expect(serials.has(receipt.serial_number)).toBe(true);
  });

  it('restores everything after a crash, from the data file and the journal', async () => {
    const first = await open();
    const token = await injectAccount(first.server);
    await changeEverything(first, token);
    // The first sandbox is never stopped, as after a SIGKILL.
    opened.splice(opened.indexOf(first), 1);
    await killable.closeAsKilled();
    await abandonLock(file);
    const second = await open();
    expect(second.fresh).toBe(false);
    expect(second.core.version).toBe(first.core.version);
    expect(canonical(second.core.snapshot())).toEqual(canonical(first.core.snapshot()));
    const next = await injectReceipt(second.server, token, 9);
    expect(next.receipt).toMatchObject({ id: 4, record: 4 });
  });

  it('restores everything on restart, and record numbers and ids go on from there', async () => {
    const first = await open();
    const token = await injectAccount(first.server);
    const created = [];
    for (let n = 0; n < 5; n += 1) created.push((await injectReceipt(first.server, token, n)).receipt);
    await first.server.inject({
      method: 'DELETE',
      url: `/rest/v1/receipts/${created[4]!.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    await first.stop();

    const second = await open();
    expect(second.fresh).toBe(false);
    const listed = await listReceipts(injectGetter(second.server, token));
    expect(listed.map((receipt) => receipt.id)).toEqual(created.slice(0, 4).map((r) => r.id));
    const next = await injectReceipt(second.server, token, 5);
    expect(next.status).toBe(201);
    expect(next.receipt.record).toBe(created[4]!.record + 1);
    expect(next.receipt.id).toBe(created[4]!.id + 1);
    expect(second.core.version).toBeGreaterThan(0);
  });

  it('stop() folds the journal into the data file, one record per line, and deletes it', async () => {
    const sandbox = await open();
    const token = await injectAccount(sandbox.server);
    await changeEverything(sandbox, token);
    expect(await journalFiles(file)).not.toEqual([]);
    await sandbox.stop();
    expect(await journalFiles(file)).toEqual([]);
    const { text, value } = await readDataFile();
    expect(value).toEqual(JSON.parse(JSON.stringify(sandbox.core.snapshot())));
    expect(text).toContain('\n"receipts": [\n{"id":1,');
  });

  it('refuses to start on a data file that is not JSON, naming the file', async () => {
    const sandbox = await open();
    await injectAccount(sandbox.server);
    await sandbox.stop();
    await writeFile(file, '{"format": 1, "accounts": [');
    await expect(open()).rejects.toThrow(`the data file ${file} is not valid JSON`);
  });

  it('refuses to start on a journal that does not follow the data file, naming both', async () => {
    const sandbox = await open();
    const token = await injectAccount(sandbox.server);
    await injectReceipt(sandbox.server, token, 1);
    await rm(file);
    await abandonLock(file);
    const refused = open();
    await expect(refused).rejects.toThrow(DataFileError);
    await expect(open()).rejects.toThrow(
      `line 1 of the journal ${file}.journal.1 continues from version 1, but the data file and the journal before it reach version 0`,
    );
  });
});

describe('a sandbox in memory', () => {
  it('keeps its state while it runs, writes no journal, and a new one starts empty', async () => {
    const sandbox = await open(null);
    expect(sandbox.fresh).toBe(true);
    const token = await injectAccount(sandbox.server);
    expect((await injectReceipt(sandbox.server, token, 1)).status).toBe(201);
    expect(await listReceipts(injectGetter(sandbox.server, token))).toHaveLength(1);
    expect(() => sandbox.core.takeChanges()).toThrow(TypeError);
    await sandbox.stop();
    const next = await open(null);
    expect(next.fresh).toBe(true);
    const response = await next.server.inject({
      method: 'GET',
      url: '/rest/v1/books',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('costs nothing per write but the change itself: no snapshot of the state, nothing to save', async () => {
    const sandbox = await open(null);
    const token = await injectAccount(sandbox.server);
    const snapshot = vi.spyOn(sandbox.core, 'snapshot');
    for (let n = 0; n < 50; n += 1) expect((await injectReceipt(sandbox.server, token, n)).status).toBe(201);
    expect(sandbox.persister.dirty).toBe(false);
    await sandbox.stop();
    expect(snapshot).not.toHaveBeenCalled();
  });
});
