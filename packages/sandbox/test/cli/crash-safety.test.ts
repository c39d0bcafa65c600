import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchGetter, listReceipts } from '../support/sandbox-api';
import { killIfRunning, spawnCli, waitForApiUrl, type CliProcess } from './spawn-cli';
import { writeUntilKilled } from './write-until-killed';

const ROUNDS = 10;
const WORKERS = 8;

/** A small seeded generator (mulberry32), so that a failing run can be replayed by its seed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

let dir: string;
let cli: CliProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-crash-'));
});

afterAll(async () => {
  await killIfRunning(cli);
  await rm(dir, { recursive: true, force: true });
});

describe('fflkit-sandbox killed with SIGKILL under write load', () => {
  it(`loses no acknowledged receipt and leaves a readable data file, ${ROUNDS} times over`, async () => {
    const seed = Number(process.env['CRASH_SEED'] ?? Date.now() % 1_000_000);
    const random = seededRandom(seed);
    const file = join(dir, 'sandbox.json');
    const args = ['--port', '0', '--quiet', '--data', file, '--rate-limit', '0'];
    const acknowledged = new Map<number, string>();
    // Receipts a fault rule failed after they were recorded: kept, so on disk like any other.
    const keptUnacknowledged = new Set<string>();
    const faulted = { before: 0, after: 0 };
    let token = '';
    let next = 0;

    for (let round = 0; round <= ROUNDS; round += 1) {
      cli = spawnCli(args, dir);
      const apiUrl = await waitForApiUrl(cli);
      const origin = apiUrl.replace(/\/rest\/v1$/, '');
      if (round === 0) {
        [, token = ''] = await cli.waitFor(/Authorization: Bearer (sbx_[^"\s]+)"/);
      } else {
        const listed = await listReceipts(fetchGetter(origin, token));
        const serials = new Map(listed.map((receipt) => [receipt.id, receipt.serial_number]));
        for (const [id, serial] of acknowledged) {
          expect(serials.get(id), `receipt ${id} after round ${round} (seed ${seed})`).toBe(serial);
        }
        const held = new Set(serials.values());
        for (const serial of keptUnacknowledged)
          expect(held.has(serial), `receipt ${serial}, failed after acting, after round ${round} (seed ${seed})`).toBe(
            true,
          );
      }
      if (round === ROUNDS) break;
      // Fault rules live in memory: each start gets them again. They fail some writes before and
      // after acting; those answers are the rules', outside the rule that every write succeeds.
      for (const rule of [
        { operation: 'createReceipt', action: 'status', status: 503, probability: 0.1, seed: seed + round },
        {
          operation: 'createReceipt',
          action: 'status',
          status: 500,
          after_acting: true,
          probability: 0.1,
          seed: seed + round + 1,
        },
      ]) {
        const added = await fetch(`${origin}/_sandbox/faults`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(rule),
        });
        expect(added.status).toBe(201);
      }

      // Kill right after a random number of acknowledgements, while other writes are in flight.
      const killAfter = 1 + Math.floor(random() * 40);
      const running = cli;
      let roundAcknowledged = 0;
      await writeUntilKilled({
        apiUrl,
        token,
        workers: WORKERS,
        nextNumber: () => (next += 1),
        onAcknowledged: (receipt) => {
          acknowledged.set(receipt.id, receipt.serial_number);
          roundAcknowledged += 1;
          if (roundAcknowledged === killAfter) running.child.kill('SIGKILL');
        },
        onFaulted: (serial, afterActing) => {
          faulted[afterActing ? 'after' : 'before'] += 1;
          if (afterActing) keptUnacknowledged.add(serial);
        },
      });
      expect(await running.exit).toEqual({ code: null, signal: 'SIGKILL' });
      const text = await readFile(file, 'utf8');
      expect(() => JSON.parse(text), `data file after round ${round} (seed ${seed})`).not.toThrow();
    }
    expect(acknowledged.size).toBeGreaterThanOrEqual(ROUNDS);
    // The rules did fail writes, both ways, or the kept-after-acting check proved nothing.
    expect(faulted.before, `seed ${seed}`).toBeGreaterThan(0);
    expect(faulted.after, `seed ${seed}`).toBeGreaterThan(0);
  }, 60_000);
});
