import {
  createSandboxCore,
  type CreateAccountInput,
  type CreatedAccount,
  type SandboxCore,
  type SandboxCoreOptions,
} from '@boundbook/sandbox-core';
import type { Server } from '@hapi/hapi';
import { CorePersister } from './persistence/core-persister';
import { openDatabase, type SnapshotDatabase } from './persistence/open-database';
import { createSandboxServer } from './server/create-sandbox-server';
import { formatOrigin } from './server/format-origin';

/** Everything {@link createSandbox} needs; the CLI and `startSandbox()` fill in the defaults. */
export interface SandboxOptions {
  host: string;
  port: number;
  /** Path of the JSON data file, or `undefined` to keep the state in memory. */
  data: string | undefined;
  rateLimit?: number | undefined;
  now?: (() => number) | undefined;
}

/** A sandbox made of its core, its database and its Hapi server. */
export interface Sandbox {
  /** Whether the sandbox began without saved state (a new data file, or memory). */
  readonly fresh: boolean;
  readonly core: SandboxCore;
  readonly database: SnapshotDatabase;
  readonly server: Server;
  /** `http://host:port` once started, without a trailing slash. */
  readonly origin: string;
  /** Starts listening. */
  start(): Promise<void>;
  /** Makes an isolated account and resolves once it is saved. */
  createAccount(input?: CreateAccountInput): Promise<CreatedAccount>;
  /** Stops listening, lets requests in flight finish, then saves whatever changed. */
  stop(): Promise<void>;
}

/**
 * Reads the data file (or starts in memory), makes the core from its snapshot, and makes the
 * Hapi server over it, not yet listening (tests call `server.inject()` on it).
 *
 * @example
 * ```ts
 * const sandbox = await createSandbox({ host: '127.0.0.1', port: 4010, data: './sandbox.json' });
 * await sandbox.start();
 * if (sandbox.fresh) console.log((await sandbox.createAccount()).token);
 * ```
 */
export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  const database = await openDatabase(options.data);
  const coreOptions: SandboxCoreOptions = {};
  if (database.data !== null) coreOptions.snapshot = database.data;
  if (options.rateLimit !== undefined) coreOptions.rateLimit = options.rateLimit;
  if (options.now !== undefined) coreOptions.now = options.now;
  const core = createSandboxCore(coreOptions);
  const persister = new CorePersister(core, database);
  const server = createSandboxServer({ core, persister, host: options.host, port: options.port });

  let stopping: Promise<void> | undefined;
  return {
    fresh: database.data === null,
    core,
    database,
    server,
    get origin() {
      return formatOrigin(options.host, Number(server.info.port));
    },
    async start() {
      await server.start();
    },
    async createAccount(input) {
      const created = core.createAccount(input);
      await persister.persist();
      return created;
    },
    stop() {
      stopping ??= server.stop({ timeout: 10_000 }).then(() => persister.flush());
      return stopping;
    },
  };
}
