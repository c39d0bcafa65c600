import { afterAll, expect } from 'vitest';

// A setup file of every Node test project: a file handle left open is a defect, whether the code
// or a test forgot to close it, and Node only says so when the garbage collector closes it
// (`DEP0137`), at a moment of its own, in whichever test runs then. So the collector runs after
// each test file (the projects start Node with --expose-gc), and a warning it causes fails that
// file, naming the descriptor.

type Collect = () => void;

const leaks: string[] = [];
const node = (globalThis as { process?: NodeJS.Process }).process;

if (node?.on !== undefined) {
  node.on('warning', (warning: Error & { code?: string }) => {
    if (warning.code === 'DEP0137' || /^Closing file descriptor \d+ on garbage collection/.test(warning.message)) {
      leaks.push(warning.message);
    }
  });

  afterAll(async () => {
    const collect = (globalThis as { gc?: Collect }).gc;
    expect(collect, 'the check needs Node started with --expose-gc (execArgv in vitest.shared.ts)').toBeTypeOf(
      'function',
    );
    if (collect === undefined) return;
    // Twice: a handle is found unreachable in one collection and closed in a later one.
    for (let round = 0; round < 2; round += 1) {
      collect();
      // The warning is emitted on a later turn of the event loop than the collection.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(leaks, 'a FileHandle was left open and closed by the garbage collector: close it').toEqual([]);
  });
}
