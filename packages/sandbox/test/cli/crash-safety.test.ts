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
  dir = await mkdtemp(join(tmpdir(), 'boundbook-sandbox-crash-'));
});

afterAll(async () => {
  await killIfRunning(cli);
  await rm(dir, { recursive: true, force: true });
});

describe('boundbook-sandbox killed with SIGKILL under write load', () => {
  it(`loses no acknowledged receipt and leaves a readable data file, ${ROUNDS} times over`, async () => {
    const seed = Number(process.env['CRASH_SEED'] ?? Date.now() % 1_000_000);
    const random = seededRandom(seed);
    const file = join(dir, 'sandbox.json');
    const args = ['--port', '0', '--quiet', '--data', file, '--rate-limit', '0'];
    const acknowledged = new Map<number, string>();
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
      }
      if (round === ROUNDS) break;

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
      });
      expect(await running.exit).toEqual({ code: null, signal: 'SIGKILL' });
      const text = await readFile(file, 'utf8');
      expect(() => JSON.parse(text), `data file after round ${round} (seed ${seed})`).not.toThrow();
    }
    expect(acknowledged.size).toBeGreaterThanOrEqual(ROUNDS);
  }, 60_000);
});
