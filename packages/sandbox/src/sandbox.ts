import { resolve } from 'node:path';
import {
  ApiError,
  createSandboxCore,
  type CreatedAccount,
  type SandboxCore,
  type SandboxCoreOptions,
  type SandboxSnapshot,
  SnapshotError,
} from '@fflkit/sandbox-core';
import { SNAPSHOT_FORMAT } from '@fflkit/sandbox-core/persistence';
import { nodeHmacSha256Hex, nodeSha256Hex } from '@fflkit/sandbox-core/node-crypto';
import type { SandboxAccountCreate, SandboxFixtures, SandboxFixturesLoaded } from '@fflkit/types';
import type { Server } from '@hapi/hapi';
import { type ConsoleSource, locateConsole } from './console-route';
import { formatOrigin } from './control-client';
import { DeliveryDispatcher } from './deliveries/delivery-dispatcher';
import { createNodeDeliverySender, type NodeDeliverySender } from './deliveries/node-delivery-sender';
import { readFixturesFile, refusedFixtures } from './fixtures-file';
import { CorePersister } from './persistence/persister';
import { openStorage, type Storage, type StorageOptions } from './persistence/storage';
import { createSandboxServer } from './server';

// The sandbox assembled: the core made from what its storage holds, with Node's crypto and HTTP
// for its hashing and its webhook deliveries, the Hapi server over it, the persister and the
// delivery dispatcher. The CLI and `startSandbox()` both start one of these.

/**
 * Everything {@link createSandbox} needs; the CLI and `startSandbox()` fill in the defaults. Where
 * the state is kept (`data`, and how: `flush`, `compactAtBytes`, `files`) is the storage's
 * options; the CLI reads them from its flags and variables, the library from no environment
 * variable.
 */
export interface SandboxOptions extends StorageOptions {
  host: string;
  port: number;
  rateLimit?: number | undefined;
  now?: (() => number) | undefined;
  /** How long a webhook receiver has to answer, in milliseconds; defaults to 5 s, as the service. */
  webhookTimeoutMs?: number | undefined;
  /** Webhook delivery attempts in flight at most; defaults to 32. */
  deliveryConcurrency?: number | undefined;
  /** How long `stop()` lets delivery attempts in flight finish, in milliseconds; defaults to 1 s. */
  deliveryStopGraceMs?: number | undefined;
  /** The most accounts the sandbox holds; defaults to the core's `DEFAULT_MAX_ACCOUNTS`. */
  maxAccounts?: number | undefined;
  /** Host names the sandbox answers to besides its own (`--allowed-hosts`). */
  allowedHosts?: readonly string[] | undefined;
  /** Origins allowed to call the sandbox from a browser, with CORS (`--cors`). */
  cors?: readonly string[] | undefined;
  /**
   * The built console: its folder, or the single executable's assets; by default the one of
   * the running code (`locateConsole()`), when built.
   */
  consoleFiles?: ConsoleSource | undefined;
  /**
   * A fixtures file to load once the data file is open, before the sandbox listens: the file
   * parsed, or its path (JSON or YAML). A file with any fault stops the start.
   */
  fixtures?: SandboxFixtures | string | undefined;
}

/** A sandbox made of its core, its database, its Hapi server and its webhook dispatcher. */
export interface Sandbox {
  /** Whether the sandbox began without saved state (a new data file, or memory). */
  readonly fresh: boolean;
  /** What the fixtures of {@link SandboxOptions.fixtures} added, account by account; `undefined` without fixtures. */
  readonly fixturesLoaded: SandboxFixturesLoaded | undefined;
  readonly core: SandboxCore;
  /** Commits the core's changes to its storage (nothing in memory). */
  readonly persister: CorePersister;
  readonly server: Server;
  /** Sends webhook deliveries in real time, once the sandbox is started. */
  readonly dispatcher: DeliveryDispatcher;
  /** `http://host:port` once started, without a trailing slash. */
  readonly origin: string;
  /**
   * Starts listening, and sending webhook deliveries (at once those that fell due while the
   * sandbox was stopped). Until then, control calls still make their own attempts.
   */
  start(): Promise<void>;
  /** Makes an isolated account and resolves once it is saved. */
  createAccount(input?: SandboxAccountCreate): Promise<CreatedAccount>;
  /**
   * Stops listening and lets requests in flight finish; stops sending deliveries, giving the
   * attempts in flight a grace period to finish (any still in flight is abandoned, to be
   * attempted again after a restart); then saves whatever changed and folds the journal into the
   * data file.
   */
  stop(): Promise<void>;
}

/**
 * Opens the storage (a data file's lock taken, the file read and its journal replayed; nothing
 * in memory), makes the core from what it holds with a Node HTTP transport for its webhook
 * deliveries, and makes the Hapi server over it, not yet listening (tests call
 * `server.inject()` on it), and the dispatcher of its deliveries, not yet sending; then loads the
 * fixtures, if any, and saves them. A state stored in an earlier format is rewritten in the
 * current one at once. A storage that cannot be used (a data file held by another sandbox,
 * damaged, of a newer format) rejects with the storage's error (a `DataFileError` naming the
 * file); fixtures that cannot be read or loaded reject with a `FixturesError` naming every
 * fault, having changed nothing.
 */
export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  // Read before the storage is touched, so that a mistyped path changes nothing on disk.
  const fixtures =
    typeof options.fixtures === 'string'
      ? { file: (await readFixturesFile(options.fixtures)) as SandboxFixtures, path: resolve(options.fixtures) }
      : options.fixtures === undefined
        ? undefined
        : { file: options.fixtures, path: undefined };
  const storage = openStorage(options);
  const snapshot = await storage.open();
  const sender = createNodeDeliverySender({ timeoutMs: options.webhookTimeoutMs });
  try {
    return await assemble(options, storage, snapshot, fixtures, sender);
  } catch (error) {
    // Whatever stopped the start gives back all it took, for a process that goes on.
    sender.close();
    await storage.close();
    throw error;
  }
}

/** Fixtures to load at the start: the file parsed, and its absolute path when it was read from one. */
interface StartFixtures {
  readonly file: SandboxFixtures;
  readonly path: string | undefined;
}

/**
 * Loads fixtures into the core and saves them. A file the core refuses is a `FixturesError`
 * naming its faults, and changes nothing (the load is one transaction).
 */
async function loadFixtures(
  core: SandboxCore,
  persister: CorePersister,
  fixtures: StartFixtures,
): Promise<SandboxFixturesLoaded> {
  const mark = persister.mark();
  let loaded: SandboxFixturesLoaded;
  try {
    loaded = core.loadFixtures(fixtures.file);
  } catch (error) {
    throw error instanceof ApiError ? refusedFixtures(error, fixtures.path) : error;
  }
  await persister.settle(mark);
  return loaded;
}

async function assemble(
  options: SandboxOptions,
  storage: Storage,
  snapshot: SandboxSnapshot | null,
  fixtures: StartFixtures | undefined,
  sender: NodeDeliverySender,
): Promise<Sandbox> {
  const coreOptions: SandboxCoreOptions = {
    recordChanges: storage.durable,
    rateLimit: options.rateLimit,
    maxAccounts: options.maxAccounts,
    now: options.now,
    sha256Hex: nodeSha256Hex,
    hmacSha256Hex: nodeHmacSha256Hex,
  };
  if (snapshot !== null) coreOptions.snapshot = snapshot;
  coreOptions.sendDelivery = sender.send;
  const core = createCore(coreOptions, storage);
  const persister = new CorePersister(core, storage);
  if (snapshot !== null && snapshot.format !== SNAPSHOT_FORMAT) await persister.fold();
  let fixturesLoaded: SandboxFixturesLoaded | undefined;
  if (fixtures !== undefined) {
    fixturesLoaded = await loadFixtures(core, persister, fixtures);
  }
  const server = createSandboxServer({
    core,
    persister,
    host: options.host,
    port: options.port,
    allowedHosts: options.allowedHosts,
    cors: options.cors,
    consoleFiles: options.consoleFiles ?? locateConsole(),
  });
  const dispatcher = new DeliveryDispatcher({
    deliveries: core.deliveries,
    persist: () => persister.settle(),
    concurrency: options.deliveryConcurrency,
    now: options.now,
    stopGraceMs: options.deliveryStopGraceMs,
  });

  let stopping: Promise<void> | undefined;
  return {
    fresh: snapshot === null,
    fixturesLoaded,
    core,
    persister,
    server,
    dispatcher,
    get origin() {
      return formatOrigin(options.host, Number(server.info.port));
    },
    async start() {
      await server.start();
      dispatcher.start();
    },
    async createAccount(input) {
      const mark = persister.mark();
      const created = core.createAccount(input);
      await persister.settle(mark);
      return created;
    },
    stop() {
      stopping ??= server
        .stop({ timeout: 10_000 })
        .then(() => dispatcher.stop())
        .finally(() => sender.close())
        .then(() => persister.close());
      return stopping;
    },
  };
}

/** The core made from the snapshot; a snapshot it cannot restore is damaged storage. */
function createCore(options: SandboxCoreOptions, storage: Storage): SandboxCore {
  try {
    return createSandboxCore(options);
  } catch (error) {
    throw error instanceof SnapshotError ? storage.damaged(error) : error;
  }
}
