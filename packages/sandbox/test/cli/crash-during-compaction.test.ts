import { createSandboxCore } from '@fflkit/sandbox-core';
import { watch } from 'node:fs';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotFile } from '../../src/persistence/data-file';
import { journalFiles } from '../support/state-on-disk';
import { receiptRequest } from '../support/receipt-body';
import { fetchGetter, listReceipts } from '../support/sandbox-api';
import { killIfRunning, spawnCli, waitForApiUrl, type CliProcess } from './spawn-cli';
import { writeUntilKilled } from './write-until-killed';

const ROUNDS = 6;
const WORKERS = 8;
/** Receipts in the data file before the first round, so that each compaction takes a while. */
const SEEDED = 4000;
/** A journal this small is compacted every few commits. */
const COMPACT_AT_BYTES = '16384';
const TEMPORARY = '.sandbox.json.tmp';

let dir: string;
let cli: CliProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-compaction-crash-'));
});

afterAll(async () => {
  await killIfRunning(cli);
  await rm(dir, { recursive: true, force: true });
});

/** Writes a data file whose account holds `SEEDED` receipts; answers its token and receipts. */
async function seed(file: string): Promise<{ token: string; receipts: Map<number, string> }> {
  const core = createSandboxCore({ rateLimit: 0 });
  const { token } = core.createAccount();
  for (let n = 1; n <= SEEDED; n += 1) {
    const { status } = await core.handle(receiptRequest(token, n));
    if (status !== 201) throw new Error(`seeding receipt ${n} answered ${status}`);
  }
  const snapshot = core.snapshot();
  await new SnapshotFile(file).write(snapshot);
  return { token, receipts: new Map(snapshot.receipts.map((receipt) => [receipt.id, receipt.serial_number])) };
}

describe('fflkit-sandbox killed with SIGKILL while it compacts its journal under write load', () => {
  it(`loses no acknowledged receipt and leaves a readable data file, ${ROUNDS} times over`, async () => {
    const file = join(dir, 'sandbox.json');
    const args = ['--port', '0', '--quiet', '--data', file, '--rate-limit', '0'];
    const env = { FFLKIT_SANDBOX_COMPACT_AT_BYTES: COMPACT_AT_BYTES };
    const { token, receipts: acknowledged } = await seed(file);
    let next = SEEDED;
    let killedBeforeRename = 0;

    for (let round = 0; round <= ROUNDS; round += 1) {
      cli = spawnCli(args, dir, env);
      const apiUrl = await waitForApiUrl(cli);
      const listed = await listReceipts(fetchGetter(apiUrl.replace(/\/rest\/v1$/, ''), token));
      const serials = new Map(listed.map((receipt) => [receipt.id, receipt.serial_number]));
      for (const [id, serial] of acknowledged) {
        expect(serials.get(id), `receipt ${id} after round ${round}`).toBe(serial);
      }
      if (round === ROUNDS) break;

      // Killed while a compaction writes the data file's temporary file, after 0 to 3 of the
      // events of its writes (chunks of about 1 MB), while the workers' writes go on.
      const running = cli;
      let events = round % 4;
      const watcher = watch(dir, (_event, name) => {
        if (name === TEMPORARY && (events -= 1) < 0) running.child.kill('SIGKILL');
      });
      try {
        await writeUntilKilled({
          apiUrl,
          token,
          workers: WORKERS,
          nextNumber: () => (next += 1),
          onAcknowledged: (receipt) => acknowledged.set(receipt.id, receipt.serial_number),
        });
      } finally {
        watcher.close();
      }
      expect(await running.exit).toEqual({ code: null, signal: 'SIGKILL' });
      if (
        await access(join(dir, TEMPORARY)).then(
          () => true,
          () => false,
        )
      )
        killedBeforeRename += 1;
      const text = await readFile(file, 'utf8');
      expect(() => JSON.parse(text), `data file after round ${round}`).not.toThrow();
    }
    // Most kills land while the snapshot is being written, before its rename.
    expect(killedBeforeRename).toBeGreaterThanOrEqual(ROUNDS / 2);
    expect(acknowledged.size).toBeGreaterThan(SEEDED);

    const last = cli!;
    last.child.kill('SIGTERM');
    expect(await last.exit).toEqual({ code: 0, signal: null });
    expect(await journalFiles(file)).toEqual([]);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { receipts: { id: number; serial_number: string }[] };
    const savedSerials = new Map(saved.receipts.map((receipt) => [receipt.id, receipt.serial_number]));
    for (const [id, serial] of acknowledged) expect(savedSerials.get(id), `receipt ${id} after the stop`).toBe(serial);
  }, 120_000);
});
