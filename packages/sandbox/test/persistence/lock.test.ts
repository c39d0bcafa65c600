import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFileError, type FileSystem, nodeFileSystem } from '../../src/persistence/data-file';
import {
  DataFileLock,
  LOCK_RENEW_MS,
  LOCK_STALE_MS,
  type LockClock,
  type LockHolder,
} from '../../src/persistence/lock';
import { startSandbox } from '../../src/start-sandbox';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-lock-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The lock of a process that is gone: no process has this id. */
const staleLock = () =>
  `${JSON.stringify({ pid: 2 ** 30, host: hostname(), started_at: '2026-01-01T00:00:00.000Z' })}\n`;

describe('DataFileLock.acquire(dataFile, files)', () => {
  it('takes over the lock of a process that is gone, leaving nothing beside it', async () => {
    const file = join(dir, 'sandbox.json');
    await writeFile(`${file}.lock`, staleLock());
    const lock = await DataFileLock.acquire(file, nodeFileSystem);
    expect(JSON.parse(await readFile(`${file}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    expect(await readdir(dir)).toEqual(['sandbox.json.lock']);
    await lock.release();
  });

  it('makes the lock file whole in one step, never empty for another sandbox to read', async () => {
    const file = join(dir, 'sandbox.json');
    const lockOps: string[] = [];
    const files: FileSystem = {
      ...nodeFileSystem,
      writeFile: async (path, data, options) => {
        if (path === `${file}.lock`) lockOps.push('writeFile');
        await nodeFileSystem.writeFile(path, data, options);
      },
      link: async (existing, path) => {
        if (path === `${file}.lock`) lockOps.push(`link of ${JSON.parse(await readFile(existing, 'utf8')).pid}`);
        await nodeFileSystem.link(existing, path);
      },
    };
    const lock = await DataFileLock.acquire(file, files);
    expect(lockOps).toEqual([`link of ${process.pid}`]);
    expect(await readdir(dir)).toEqual(['sandbox.json.lock']);
    await lock.release();
  });

  it('refuses, and puts it back, when another sandbox took the stale lock over at the same moment', async () => {
    const file = join(dir, 'sandbox.json');
    await writeFile(`${file}.lock`, staleLock());
    const other = `${JSON.stringify({ pid: process.ppid, host: hostname(), started_at: '2026-11-24T00:00:00.000Z' })}\n`;
    // Between this sandbox's read of the stale lock and its move, the other one replaces it.
    let raced = false;
    const files: FileSystem = {
      ...nodeFileSystem,
      rename: async (from, to) => {
        if (!raced && to.endsWith('.stale')) {
          raced = true;
          await writeFile(from, other);
        }
        await nodeFileSystem.rename(from, to);
      },
    };
    const attempt = DataFileLock.acquire(file, files);
    await expect(attempt).rejects.toThrow(DataFileError);
    await expect(attempt).rejects.toThrow(`another sandbox (process ${process.ppid} on ${hostname()}) took`);
    expect(raced).toBe(true);
    expect(await readFile(`${file}.lock`, 'utf8')).toBe(other);
    expect(await readdir(dir)).toEqual(['sandbox.json.lock']);
  });
});

/** A clock of its own: `sleep` moves it on at once, and the renewal runs when the test says. */
interface TestClock extends LockClock {
  time: number;
  slept: number;
  readonly renewals: { ms: number; action: () => void; stopped: boolean }[];
  /** Runs at each sleep, after the time has moved on: what the other sandbox does meanwhile. */
  meanwhile: () => Promise<void>;
}

function testClock(start = Date.parse('2026-11-26T12:00:00.000Z')): TestClock {
  const clock: TestClock = {
    time: start,
    slept: 0,
    renewals: [],
    meanwhile: async () => {},
    now: () => clock.time,
    async sleep(ms) {
      clock.time += ms;
      clock.slept += ms;
      await clock.meanwhile();
    },
    repeat(ms, action) {
      const renewal = { ms, action, stopped: false };
      clock.renewals.push(renewal);
      return () => {
        renewal.stopped = true;
      };
    },
  };
  return clock;
}

/** A sandbox on this machine (boot `boot-1`), in the PID namespace `namespace`. */
const holder = (pid: number, namespace: string, host = 'box'): LockHolder => ({
  pid,
  host,
  boot: 'boot-1',
  pid_namespace: namespace,
});

/** Writes the lock of `held`, last renewed at `renewedAt` (epoch milliseconds). */
async function writeLock(file: string, held: LockHolder, renewedAt: number): Promise<void> {
  await writeFile(`${file}.lock`, `${JSON.stringify({ ...held, started_at: '2026-11-26T11:00:00.000Z' })}\n`);
  await utimes(`${file}.lock`, new Date(renewedAt), new Date(renewedAt));
}

describe('DataFileLock.acquire(dataFile, files, { holder, clock }): who still holds a lock', () => {
  it('takes over a lock naming this very process that it did not take itself (a restarted container, its sandbox PID 1 again)', async () => {
    const file = join(dir, 'sandbox.json');
    const clock = testClock();
    await writeLock(file, holder(process.pid, 'pid:[7]'), clock.time);
    const lock = await DataFileLock.acquire(file, nodeFileSystem, { holder: holder(process.pid, 'pid:[7]'), clock });
    expect(clock.slept).toBe(0);
    // The lock it took is its own: a second sandbox of this process is refused.
    await expect(
      DataFileLock.acquire(file, nodeFileSystem, { holder: holder(process.pid, 'pid:[7]'), clock }),
    ).rejects.toThrow(/is in use by another sandbox/);
    await lock.release();
  });

  it('refuses a lock of another PID namespace of this machine that is renewed (another container on the same volume)', async () => {
    const file = join(dir, 'sandbox.json');
    const clock = testClock();
    await writeLock(file, holder(1, 'pid:[8]', 'other-container'), clock.time - 400);
    clock.meanwhile = () => utimes(`${file}.lock`, new Date(clock.time), new Date(clock.time));
    await expect(
      DataFileLock.acquire(file, nodeFileSystem, { holder: holder(1, 'pid:[9]', 'this-container'), clock }),
    ).rejects.toThrow('is in use by another sandbox: process 1 on other-container');
    expect(clock.slept).toBeLessThanOrEqual(LOCK_RENEW_MS);
  });

  it('takes over a lock of another PID namespace of this machine once it has gone 5 s unrenewed (a container killed)', async () => {
    const file = join(dir, 'sandbox.json');
    const clock = testClock();
    await writeLock(file, holder(1, 'pid:[8]', 'killed-container'), clock.time - 1_000);
    const lock = await DataFileLock.acquire(file, nodeFileSystem, { holder: holder(1, 'pid:[9]'), clock });
    expect(clock.slept).toBeGreaterThan(LOCK_STALE_MS - 1_000 - LOCK_RENEW_MS);
    expect(clock.slept).toBeLessThanOrEqual(LOCK_STALE_MS);
    expect(JSON.parse(await readFile(`${file}.lock`, 'utf8'))).toMatchObject({ host: 'box', pid_namespace: 'pid:[9]' });
    await lock.release();
  });

  it('takes over at once the lock of a killed sandbox of this PID namespace, by its id that runs no more', async () => {
    const file = join(dir, 'sandbox.json');
    const taken = await DataFileLock.acquire(file, nodeFileSystem);
    const record = JSON.parse(await readFile(`${file}.lock`, 'utf8')) as Record<string, unknown>;
    await taken.release();
    await writeFile(`${file}.lock`, `${JSON.stringify({ ...record, pid: 2 ** 30 })}\n`);
    // Now, so that a lock watched for its renewal would be waited for.
    const clock = testClock(Date.now());
    const lock = await DataFileLock.acquire(file, nodeFileSystem, { clock });
    expect(clock.slept).toBe(0);
    await lock.release();
  });

  it('takes over at once a lock of another PID namespace left unrenewed for longer', async () => {
    const file = join(dir, 'sandbox.json');
    const clock = testClock();
    await writeLock(file, holder(1, 'pid:[8]', 'killed-container'), clock.time - LOCK_STALE_MS - 1);
    const lock = await DataFileLock.acquire(file, nodeFileSystem, { holder: holder(1, 'pid:[9]'), clock });
    expect(clock.slept).toBe(0);
    await lock.release();
  });

  it('refuses a lock of another machine, and takes over one of this machine before it restarted', async () => {
    const file = join(dir, 'sandbox.json');
    const clock = testClock();
    // Of another boot and another machine: nothing here can tell, so it counts as held.
    await writeLock(file, { ...holder(process.pid, 'pid:[7]', 'elsewhere'), boot: 'boot-0' }, clock.time - 60_000);
    await expect(
      DataFileLock.acquire(file, nodeFileSystem, { holder: holder(process.pid, 'pid:[7]'), clock }),
    ).rejects.toThrow(`process ${process.pid} on elsewhere`);
    // Of this machine's earlier boot, under an id that runs now: left all the same.
    await writeLock(file, { ...holder(process.ppid, 'pid:[7]'), boot: 'boot-0' }, clock.time);
    const lock = await DataFileLock.acquire(file, nodeFileSystem, { holder: holder(process.pid, 'pid:[7]'), clock });
    expect(clock.slept).toBe(0);
    await lock.release();
  });
});

describe('DataFileLock: renewal and release', () => {
  it('renews the lock’s modification time every second until it is released', async () => {
    const file = join(dir, 'sandbox.json');
    const clock = testClock();
    const lock = await DataFileLock.acquire(file, nodeFileSystem, { holder: holder(process.pid, 'pid:[7]'), clock });
    expect(clock.renewals).toHaveLength(1);
    const [renewal] = clock.renewals;
    expect(renewal!.ms).toBe(LOCK_RENEW_MS);
    clock.time += 3_000;
    renewal!.action();
    await expect.poll(async () => (await stat(`${file}.lock`)).mtimeMs).toBeCloseTo(clock.time, -1);
    await lock.release();
    expect(renewal!.stopped).toBe(true);
    expect(await readdir(dir)).toEqual([]);
  });

  it('leaves at release a lock that another sandbox took over meanwhile', async () => {
    const file = join(dir, 'sandbox.json');
    const lock = await DataFileLock.acquire(file, nodeFileSystem, {
      holder: holder(process.pid, 'pid:[7]'),
      clock: testClock(),
    });
    const other = `${JSON.stringify({ ...holder(1, 'pid:[8]', 'other-container'), started_at: '2026-11-26T12:00:09.000Z' })}\n`;
    await writeFile(`${file}.lock`, other);
    await lock.release();
    expect(await readFile(`${file}.lock`, 'utf8')).toBe(other);
  });
});

describe('one sandbox per data file', () => {
  it('refuses a second sandbox on a symbolic link to the data file of a running one', async () => {
    const file = join(dir, 'real', 'sandbox.json');
    const first = await startSandbox({ data: file });
    try {
      await mkdir(join(dir, 'elsewhere'));
      await symlink(file, join(dir, 'elsewhere', 'sandbox.json'));
      await expect(startSandbox({ data: join(dir, 'elsewhere', 'sandbox.json') })).rejects.toThrow(
        /is in use by another sandbox/,
      );
      // The same through a link to the folder.
      await symlink(join(dir, 'real'), join(dir, 'linked'));
      await expect(startSandbox({ data: join(dir, 'linked', 'sandbox.json') })).rejects.toThrow(
        /is in use by another sandbox/,
      );
      // A link, not yet written through, whose `..` leaves the real folder of a linked folder.
      await mkdir(join(dir, 'real', 'deeper'));
      await symlink('../sandbox.json', join(dir, 'real', 'deeper', 'link.json'));
      await symlink(join(dir, 'real', 'deeper'), join(dir, 'deep'));
      await expect(startSandbox({ data: join(dir, 'deep', 'link.json') })).rejects.toThrow(
        /is in use by another sandbox/,
      );
    } finally {
      await first.stop();
    }
  });
});
