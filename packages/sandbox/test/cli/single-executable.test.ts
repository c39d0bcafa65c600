import { afterEach, describe, expect, it, vi } from 'vitest';

// The single executable's program, run as the snapshot's build runs it: node:v8 says a snapshot
// is being built, so the module warms up and registers its main function instead of starting.
const snapshot = vi.hoisted(() => ({ main: undefined as (() => void) | undefined }));
vi.mock('node:v8', async (importOriginal) => {
  const v8 = await importOriginal<typeof import('node:v8')>();
  return {
    ...v8,
    startupSnapshot: {
      isBuildingSnapshot: () => true,
      setDeserializeMainFunction: (main: () => void) => {
        snapshot.main = main;
      },
    },
  };
});
const kept = vi.hoisted(() => ({ servers: [] as unknown[] }));
vi.mock('../../src/server', async (importOriginal) => {
  const server = await importOriginal<typeof import('../../src/server')>();
  return {
    ...server,
    keepSandboxServer: () => {
      const made = server.keepSandboxServer();
      kept.servers.push(made);
      return made;
    },
  };
});

afterEach(() => {
  vi.resetModules();
});

describe('the single executable while its snapshot is built', () => {
  it('keeps a Hapi server made in the warm-up, which the next createSandboxServer() attaches', async () => {
    await import('../../src/cli/single-executable');
    await vi.waitFor(() => expect(kept.servers).toHaveLength(1));
    expect(snapshot.main).toBeTypeOf('function');
    const { createSandboxServer } = await import('../../src/server');
    const { createSandboxCore } = await import('@fflkit/sandbox-core');
    const { CorePersister } = await import('../../src/persistence/persister');
    const { MemoryStorage } = await import('../../src/persistence/memory-storage');
    const core = createSandboxCore();
    const server = createSandboxServer({ core, persister: new CorePersister(core, new MemoryStorage()) });
    expect(server).toBe(kept.servers[0]);
  });
});
