import type { SandboxCore, SandboxSnapshot } from '@boundbook/sandbox-core';
import type { Low } from 'lowdb';
import { GroupCommit } from './group-commit';

/**
 * Keeps a lowdb database in step with a core: {@link CorePersister.persist} resolves once the
 * core's state as of the call is written, and concurrent calls share one write (group commit).
 *
 * @example
 * ```ts
 * const persister = new CorePersister(core, database);
 * const before = core.version;
 * const response = await core.handle(request);
 * if (core.version !== before) await persister.persist();
 * ```
 */
export class CorePersister {
  readonly #core: SandboxCore;
  readonly #database: Low<SandboxSnapshot | null>;
  readonly #commit: GroupCommit;
  #savedVersion: number;

  /** Takes the core's current state as already saved: the core was just made from the file. */
  constructor(core: SandboxCore, database: Low<SandboxSnapshot | null>) {
    this.#core = core;
    this.#database = database;
    this.#savedVersion = core.version;
    this.#commit = new GroupCommit(() => this.#write());
  }

  /** Whether the core has changed since the last completed write. */
  get dirty(): boolean {
    return this.#core.version !== this.#savedVersion;
  }

  /** Resolves once the core's state as of this call is written; at once when nothing changed. */
  persist(): Promise<void> {
    return this.dirty ? this.#commit.request() : Promise.resolve();
  }

  /** Waits for writes in flight, then writes whatever changed since. */
  async flush(): Promise<void> {
    await this.#commit.idle();
    await this.persist();
  }

  async #write(): Promise<void> {
    const version = this.#core.version;
    this.#database.data = this.#core.snapshot();
    await this.#database.write();
    this.#savedVersion = version;
  }
}
