import * as crypto from 'node:crypto';
import { readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import {
  ApiError,
  createSandboxCore,
  type CreatedAccount,
  type SandboxCore,
  type SandboxCoreOptions,
  type SandboxSnapshot,
  SNAPSHOT_FORMAT,
} from '@fflkit/sandbox-core';
import type { SandboxAccountCreate, SandboxFixtures, SandboxFixturesLoaded } from '@fflkit/types';
import type { Server } from '@hapi/hapi';
import { formatOrigin } from './control-client';
import { DeliveryDispatcher } from './deliveries/delivery-dispatcher';
import { readFixturesFile, refusedFixtures } from './fixtures-file';
import { createNodeDeliverySender, type NodeDeliverySender } from './deliveries/node-delivery-sender';
import {
  DataFileError,
  type FileSystem,
  makeFolder,
  nodeFileSystem,
  openDatabase,
  type SnapshotDatabase,
} from './persistence/data-file';
import { Journal, replayJournal } from './persistence/journal';
import { DataFileLock } from './persistence/lock';
import { CorePersister, DEFAULT_COMPACT_AT_BYTES, DEFAULT_COMPACT_AT_DATA_FILE_SHARE } from './persistence/persister';
import { type ConsoleSource, locateConsole } from './console-route';
import { createSandboxServer } from './server';

// The sandbox assembled: the core made from the data file and its journal, with Node's crypto
// and HTTP for its hashing and its webhook deliveries, the Hapi server over it, the persister
// and the delivery dispatcher. The CLI and `startSandbox()` both start one of these.

/** Everything {@link createSandbox} needs; the CLI and `startSandbox()` fill in the defaults. */
export interface SandboxOptions {
  host: string;
  port: number;
  /** Path of the JSON data file, or `undefined` to keep the state in memory. */
  data: string | undefined;
  rateLimit?: number | undefined;
  now?: (() => number) | undefined;
  /**
   * Size of the journal in bytes from which it is folded into the data file; by default 64 MiB
   * or a quarter of the data file's size, whichever is larger. The CLI reads it from
   * `FFLKIT_SANDBOX_COMPACT_AT_BYTES`; the library reads no environment variable.
   */
  compactAtBytes?: number | undefined;
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
  /** The file system of the data file, its journal and its lock; Node's by default (tests make it fail). */
  files?: FileSystem | undefined;
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
  /** Writes the core's changes to the journal and the data file (nothing in memory). */
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
 * Takes the data file's lock, reads the file and replays its journal (or starts in memory),
 * makes the core from the result with a Node HTTP transport for its webhook deliveries, and
 * makes the Hapi server over it, not yet listening (tests call `server.inject()` on it), and the
 * dispatcher of its deliveries, not yet sending; then loads the fixtures, if any, and saves
 * them. A data file of an earlier format is rewritten in the current one at once. A data file
 * that cannot be used (held by another sandbox, damaged, of a newer format) rejects with a
 * {@link DataFileError} naming it; fixtures that cannot be read or loaded reject with a
 * `FixturesError` naming every fault, having changed nothing.
 */
export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  // Read before the data file is touched, so that a mistyped path changes nothing on disk.
  const fixtures =
    typeof options.fixtures === 'string'
      ? { file: (await readFixturesFile(options.fixtures)) as SandboxFixtures, path: resolve(options.fixtures) }
      : options.fixtures === undefined
        ? undefined
        : { file: options.fixtures, path: undefined };
  const opened =
    options.data === undefined ? undefined : await openDataFile(options.data, options.files ?? nodeFileSystem);
  const sender = createNodeDeliverySender({ timeoutMs: options.webhookTimeoutMs });
  try {
    return await assemble(options, opened, fixtures, sender);
  } catch (error) {
    // Whatever stopped the start gives back all it took, for a process that goes on.
    sender.close();
    await opened?.journal.close();
    await opened?.lock.release();
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

/**
 * The real path of a data file, through every symbolic link: to the file, or, when it does not
 * exist yet, to where a link to it points, or to its folder.
 */
async function realFile(file: string, links = 0): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    // A link to a file not yet written: follow it by hand (within the system's own depth), from
    // the real folder of the link, as the system does (`..` leaves the real folder, not the link's).
    const target = links < 40 ? await readlink(file).catch(() => undefined) : undefined;
    if (target !== undefined) {
      const folder = await realpath(dirname(file)).catch(() => dirname(file));
      return realFile(resolve(folder, target), links + 1);
    }
    return realpath(dirname(file)).then(
      (folder) => join(folder, basename(file)),
      () => file,
    );
  }
}

/** A data file opened: its lock held, its snapshot read and brought up to date with its journal. */
interface OpenedDataFile {
  readonly lock: DataFileLock;
  readonly database: SnapshotDatabase;
  readonly journal: Journal;
  readonly snapshot: SandboxSnapshot | null;
}

async function openDataFile(given: string, files: FileSystem): Promise<OpenedDataFile> {
  await makeFolder(given, files);
  // The file itself, not the path to it: a symbolic link to a data file must meet that file's
  // lock, and a write must replace the file, not the link.
  const file = await realFile(given);
  const lock = await DataFileLock.acquire(file, files);
  try {
    const database = await openDatabase(file, files);
    const format = database.data?.format;
    if (typeof format === 'number' && format > SNAPSHOT_FORMAT) {
      throw new DataFileError(
        file,
        `the data file ${file} is of format ${format}, newer than format ${SNAPSHOT_FORMAT}, the newest this version of the sandbox reads: run the version that wrote it, or a later one`,
      );
    }
    const journal = await Journal.open(file, files, lock);
    const snapshot = await replayJournal(journal, database.data, lock.abandoned, files);
    return { lock, database, journal, snapshot };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function assemble(
  options: SandboxOptions,
  opened: OpenedDataFile | undefined,
  fixtures: StartFixtures | undefined,
  sender: NodeDeliverySender,
): Promise<Sandbox> {
  const snapshot = opened?.snapshot ?? null;
  const coreOptions: SandboxCoreOptions = {
    recordChanges: opened !== undefined,
    rateLimit: options.rateLimit,
    maxAccounts: options.maxAccounts,
    now: options.now,
    sha256Hex: nodeSha256Hex,
    hmacSha256Hex: nodeHmacSha256Hex,
  };
  if (snapshot !== null) coreOptions.snapshot = snapshot;
  coreOptions.sendDelivery = sender.send;
  const core = createCore(coreOptions, options.data);
  // A size given is taken as it is; the default grows with the data file (see
  // DEFAULT_COMPACT_AT_DATA_FILE_SHARE).
  const persister = new CorePersister(
    core,
    opened && {
      database: opened.database,
      journal: opened.journal,
      compactAtBytes: options.compactAtBytes ?? DEFAULT_COMPACT_AT_BYTES,
      compactAtDataFileShare: options.compactAtBytes === undefined ? DEFAULT_COMPACT_AT_DATA_FILE_SHARE : undefined,
    },
  );
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
        .then(() => persister.close())
        .then(() => opened?.lock.release());
      return stopping;
    },
  };
}

/** The core made from the snapshot; a snapshot it cannot restore is a damaged data file. */
function createCore(options: SandboxCoreOptions, file: string | undefined): SandboxCore {
  try {
    return createSandboxCore(options);
  } catch (error) {
    if (file === undefined || !(error instanceof TypeError) || !error.message.includes('cannot restore the snapshot'))
      throw error;
    const reason = error.message.replace('[@fflkit/sandbox-core] ', '');
    throw new DataFileError(
      file,
      `the data file ${file} is damaged: ${reason}; move the data file and its journal files away to start afresh`,
      {
        cause: error,
      },
    );
  }
}

// crypto.hash() (Node 20.12 and later) hashes in one call, without making a Hash object; the
// package supports every Node 20, so older ones make the Hash object.
const oneShotHash = crypto.hash as typeof crypto.hash | undefined;

/**
 * The lowercase hex SHA-256 of a string's UTF-8 bytes with `node:crypto`: the core's
 * `sha256Hex`, with which it hashes the token of every request.
 */
export function nodeSha256Hex(text: string): string {
  if (oneShotHash !== undefined) return oneShotHash('sha256', text, 'hex');
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The lowercase hex HMAC-SHA256 of a string's UTF-8 bytes keyed with another string's UTF-8
 * bytes, with `node:crypto`: the core's `hmacSha256Hex`, with which it signs every delivery.
 */
function nodeHmacSha256Hex(key: string, message: string): string {
  return crypto.createHmac('sha256', key).update(message, 'utf8').digest('hex');
}
