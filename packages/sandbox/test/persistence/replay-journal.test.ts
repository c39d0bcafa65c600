import { createSandboxCore, type SandboxCoreInstance, type SandboxSnapshot } from '@boundbook/sandbox-core';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFileError } from '../../src/persistence/data-file-error';
import { encodeJournalLine } from '../../src/persistence/encode-journal-line';
import { Journal } from '../../src/persistence/journal';
import { replayJournal } from '../../src/persistence/replay-journal';
import { receiptBody } from '../receipt-body';
import { canonical } from './state-on-disk';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'boundbook-replay-journal-'));
  file = join(dir, 'sandbox.json');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A core that records its changes, with an account; `post(n)` makes receipt `n`. */
function recordingCore() {
  const core = createSandboxCore({ recordChanges: true, rateLimit: 0 });
  const { token } = core.createAccount();
  const post = (n: number) =>
    core.handle({
      method: 'POST',
      path: '/rest/v1/receipts',
      query: '',
      headers: { authorization: `Bearer ${token}` },
      body: receiptBody(n),
    });
  /** The journal line of the changes since the last one. */
  const line = (): string => encodeJournalLine(core.takeChanges()).toString('utf8');
  return { core, post, line };
}

const viaJson = (core: SandboxCoreInstance): SandboxSnapshot =>
  JSON.parse(JSON.stringify(core.snapshot())) as SandboxSnapshot;

const replay = async (snapshot: SandboxSnapshot | null) => replayJournal(await Journal.open(file), snapshot);

describe('replayJournal(journal, snapshot)', () => {
  it('applies every segment in order to the data file', async () => {
    const { core, post, line } = recordingCore();
    core.takeChanges();
    const start = viaJson(core);
    await post(1);
    await post(2);
    await writeFile(`${file}.journal.1`, line());
    await post(3);
    const third = line();
    await post(4);
    await writeFile(`${file}.journal.2`, third + line());
    expect(canonical(await replay(start))).toEqual(canonical(core.snapshot()));
  });

  it('skips the commits the data file already holds', async () => {
    const { core, post, line } = recordingCore();
    await post(1);
    const first = line();
    await post(2);
    const second = line();
    const middle = viaJson(core);
    await post(3);
    await writeFile(`${file}.journal.1`, first + second + line());
    const replayed = await replay(middle);
    expect(canonical(replayed)).toEqual(canonical(core.snapshot()));
    expect(replayed).toMatchObject({ version: core.version });
  });

  it('ignores the torn last line of a segment, which a restarted sandbox continues in the next', async () => {
    const { core, post, line } = recordingCore();
    core.takeChanges();
    const start = viaJson(core);
    await post(1);
    await writeFile(`${file}.journal.1`, line());
    const acknowledged = viaJson(core);
    await post(2);
    await appendFile(`${file}.journal.1`, line().slice(0, 100));
    // The restarted sandbox holds receipt 1 only; its next commit continues from there.
    const restarted = createSandboxCore({ snapshot: acknowledged, recordChanges: true });
    restarted.createAccount();
    await writeFile(`${file}.journal.2`, encodeJournalLine(restarted.takeChanges()).toString('utf8'));
    expect(canonical(await replay(start))).toEqual(canonical(restarted.snapshot()));
  });

  it('answers the snapshot itself when the journal holds nothing newer', async () => {
    const { core, post, line } = recordingCore();
    await post(1);
    await writeFile(`${file}.journal.1`, line());
    const snapshot = viaJson(core);
    expect(await replay(snapshot)).toBe(snapshot);
    await rm(`${file}.journal.1`);
    await writeFile(`${file}.journal.2`, '');
    expect(await replay(null)).toBeNull();
  });

  it('throws a DataFileError naming the segment and the line for a damaged line', async () => {
    const { post, line } = recordingCore();
    await post(1);
    await writeFile(`${file}.journal.3`, `${line()}{oops}\n${line()}`);
    await expect(replay(null)).rejects.toThrow(DataFileError);
    await expect(replay(null)).rejects.toThrow(`line 2 of the journal ${file}.journal.3 is damaged`);
  });

  it('throws a DataFileError when changes are missing between the data file and the journal', async () => {
    const { core, post, line } = recordingCore();
    const start = viaJson(core);
    line();
    await post(1);
    line();
    await post(2);
    await writeFile(`${file}.journal.1`, line());
    await expect(replay(start)).rejects.toThrow(/continues from version 2, but the data file and the journal before it reach version 1/);
    expect(core.version).toBe(3);
  });
});
