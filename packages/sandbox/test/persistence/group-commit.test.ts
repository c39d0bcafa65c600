import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/persistence/group-commit';

/** A write whose completion the test controls, recording what state each write saw. */
function controlledWrites(state: { value: number }) {
  const seen: number[] = [];
  const finishers: (() => void)[] = [];
  const write = () => {
    seen.push(state.value);
    return new Promise<void>((resolve) => finishers.push(resolve));
  };
  const finishNext = async () => {
    finishers.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { seen, write, finishNext, pending: () => finishers.length };
}

describe('GroupCommit', () => {
  it('request() starts a write at once and resolves when it finishes', async () => {
    const state = { value: 1 };
    const writes = controlledWrites(state);
    const commit = new GroupCommit(writes.write);
    let done = false;
    void commit.request().then(() => (done = true));
    expect(writes.seen).toEqual([1]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    await writes.finishNext();
    expect(done).toBe(true);
  });

  it('requests made during a write share the next single write, which sees their state', async () => {
    const state = { value: 1 };
    const writes = controlledWrites(state);
    const commit = new GroupCommit(writes.write);
    const first = commit.request();
    const later: Promise<void>[] = [];
    for (let index = 0; index < 50; index += 1) {
      state.value += 1;
      later.push(commit.request());
    }
    let laterDone = false;
    void Promise.all(later).then(() => (laterDone = true));
    await writes.finishNext();
    await first;
    expect(laterDone).toBe(false);
    expect(writes.seen).toEqual([1, 51]);
    await writes.finishNext();
    expect(laterDone).toBe(true);
    expect(writes.seen).toHaveLength(2);
  });

  it('rejects the requests of a failed write and goes on writing for the next ones', async () => {
    let fail = true;
    const commit = new GroupCommit(async () => {
      if (fail) throw new Error('disk full');
    });
    await expect(commit.request()).rejects.toThrow('disk full');
    fail = false;
    await expect(commit.request()).resolves.toBeUndefined();
  });

  it('idle() waits for the write in flight and the one queued behind it', async () => {
    const state = { value: 1 };
    const writes = controlledWrites(state);
    const commit = new GroupCommit(writes.write);
    void commit.request();
    void commit.request();
    let idle = false;
    void commit.idle().then(() => (idle = true));
    await writes.finishNext();
    expect(idle).toBe(false);
    await writes.finishNext();
    expect(idle).toBe(true);
    expect(writes.pending()).toBe(0);
  });
});
