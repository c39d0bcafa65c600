import {
  createSandboxCore,
  type CreateAccountInput,
  type CreatedAccount,
  type SandboxCoreInstance,
  type SandboxCoreOptions,
} from '@boundbook/sandbox-core';
import type { Server } from '@hapi/hapi';
import { DeliveryDispatcher } from './deliveries/delivery-dispatcher';
import { nodeHmacSha256Hex } from './deliveries/node-hmac-sha256-hex';
import { createNodeDeliverySender } from './deliveries/node-delivery-sender';
import { openDatabase, type SnapshotDatabase } from './persistence/data-file';
import { Journal, replayJournal } from './persistence/journal';
import { compactAtBytes, CorePersister } from './persistence/persister';
import { createSandboxServer } from './server/create-sandbox-server';
import { formatOrigin } from './server/format-origin';
import { nodeSha256Hex } from './server/node-sha256-hex';

/** Everything {@link createSandbox} needs; the CLI and `startSandbox()` fill in the defaults. */
export interface SandboxOptions {
  host: string;
  port: number;
  /** Path of the JSON data file, or `undefined` to keep the state in memory. */
  data: string | undefined;
  rateLimit?: number | undefined;
  now?: (() => number) | undefined;
  /**
   * Size of the journal in bytes from which it is folded into the data file; by default
   * `BOUNDBOOK_SANDBOX_COMPACT_AT_BYTES` from the environment, else 64 MiB.
   */
  compactAtBytes?: number | undefined;
  /** How long a webhook receiver has to answer, in milliseconds; defaults to 5 s, as the service. */
  webhookTimeoutMs?: number | undefined;
  /** Webhook delivery attempts in flight at most; defaults to 32. */
  deliveryConcurrency?: number | undefined;
  /** How long `stop()` lets delivery attempts in flight finish, in milliseconds; defaults to 1 s. */
  deliveryStopGraceMs?: number | undefined;
}

/** A sandbox made of its core, its database, its Hapi server and its webhook dispatcher. */
export interface Sandbox {
  /** Whether the sandbox began without saved state (a new data file, or memory). */
  readonly fresh: boolean;
  readonly core: SandboxCoreInstance;
  readonly database: SnapshotDatabase;
  /** Writes the core's changes: to the journal and the data file, or to memory. */
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
  createAccount(input?: CreateAccountInput): Promise<CreatedAccount>;
  /**
   * Stops listening and lets requests in flight finish; stops sending deliveries, giving the
   * attempts in flight a grace period to finish (any still in flight is abandoned, to be
   * attempted again after a restart); then saves whatever changed and folds the journal into the
   * data file.
   */
  stop(): Promise<void>;
}

/**
 * Reads the data file and replays its journal (or starts in memory), makes the core from the
 * result with a Node HTTP transport for its webhook deliveries, and makes the Hapi server over
 * it, not yet listening (tests call `server.inject()` on it), and the dispatcher of its
 * deliveries, not yet sending.
 */
export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  const database = await openDatabase(options.data);
  const journal = options.data === undefined ? undefined : await Journal.open(options.data);
  const snapshot = journal === undefined ? database.data : await replayJournal(journal, database.data);
  const coreOptions: SandboxCoreOptions = { recordChanges: journal !== undefined };
  if (snapshot !== null) coreOptions.snapshot = snapshot;
  if (options.rateLimit !== undefined) coreOptions.rateLimit = options.rateLimit;
  if (options.now !== undefined) coreOptions.now = options.now;
  coreOptions.sha256Hex = nodeSha256Hex;
  const sender = createNodeDeliverySender({ timeoutMs: options.webhookTimeoutMs });
  coreOptions.sendDelivery = sender.send;
  coreOptions.hmacSha256Hex = nodeHmacSha256Hex;
  const core = createSandboxCore(coreOptions);
  const persister = new CorePersister(
    core,
    database,
    journal && { journal, compactAtBytes: options.compactAtBytes ?? compactAtBytes(process.env) },
  );
  const server = createSandboxServer({ core, persister, host: options.host, port: options.port });
  const dispatcher = new DeliveryDispatcher({
    deliveries: core.deliveries,
    persist: () => persister.persist(),
    concurrency: options.deliveryConcurrency,
    now: options.now,
    stopGraceMs: options.deliveryStopGraceMs,
  });

  let stopping: Promise<void> | undefined;
  return {
    fresh: snapshot === null,
    core,
    database,
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
      const created = core.createAccount(input);
      await persister.persist();
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
