import type { SandboxSnapshot } from '../sandbox-core-types';
import { CORE_COLLECTIONS, type CoreChangeSet, type CoreCollection } from './core-change';
import type { Sequences } from './core-state';

/** A stored record as the replay sees it: anything with an id. */
interface Identified {
  readonly id: number | string;
}

const KNOWN_COLLECTIONS: ReadonlySet<string> = new Set(CORE_COLLECTIONS);

/**
 * Brings a snapshot up to date with change sets, one at a time, as a persister reads them back
 * from its journal. A collection is indexed by id the first time a change touches it, so each
 * change then costs one map operation; collections that no change touches are kept as they are.
 *
 * A change set that leads to a version the snapshot already holds is skipped. One that starts
 * after the current version means that changes are missing in between, and throws a
 * `TypeError`. One that starts before the current version and leads past it is applied whole:
 * its changes put whole records in place or take them out, in order, so the ones the snapshot
 * already holds are applied again to the same effect.
 *
 * @example
 * ```ts
 * const replay = new ChangeReplay(snapshotFromFile);
 * for (const changeSet of journal) replay.apply(changeSet);
 * const core = createSandboxCore({ snapshot: replay.snapshot() });
 * ```
 */
export class ChangeReplay {
  readonly #source: SandboxSnapshot;
  readonly #collections = new Map<CoreCollection, Map<number | string, Identified>>();
  #version: number;
  #sequences: Sequences | undefined;

  /** Starts from `snapshot`, or from the empty state (version 0) when it is `undefined`. */
  constructor(snapshot?: SandboxSnapshot) {
    this.#source = snapshot ?? { format: 1 };
    const version = this.#source['version'];
    this.#version = typeof version === 'number' ? version : 0;
  }

  /** The version of the state so far. */
  get version(): number {
    return this.#version;
  }

  /** Applies `changeSet`; answers `false` when the snapshot already held it and it was skipped. */
  apply(changeSet: CoreChangeSet): boolean {
    if (changeSet.version <= this.#version) return false;
    if (changeSet.base > this.#version) {
      throw new TypeError(
        `[@boundbook/sandbox-core] cannot apply the changes from version ${changeSet.base} to a snapshot of version ${this.#version}: the changes in between are missing`,
      );
    }
    for (const change of changeSet.changes) {
      const records = this.#records(change.collection);
      if (change.op === 'upsert') records.set(change.record.id, change.record);
      else records.delete(change.id);
    }
    this.#version = changeSet.version;
    this.#sequences = changeSet.sequences;
    return true;
  }

  /**
   * The snapshot with every applied change: the snapshot given when nothing was applied, else
   * a new one whose touched collections keep the original order, new records last.
   */
  snapshot(): SandboxSnapshot {
    if (this.#sequences === undefined) return this.#source;
    const snapshot: SandboxSnapshot = {
      ...this.#source,
      version: this.#version,
      sequences: { ...this.#sequences },
    };
    for (const [collection, records] of this.#collections) snapshot[collection] = [...records.values()];
    return snapshot;
  }

  #records(collection: CoreCollection): Map<number | string, Identified> {
    let records = this.#collections.get(collection);
    if (records !== undefined) return records;
    if (!KNOWN_COLLECTIONS.has(collection)) {
      throw new TypeError(`[@boundbook/sandbox-core] cannot apply a change to the unknown collection ${JSON.stringify(collection)}`);
    }
    records = new Map();
    const stored = this.#source[collection];
    if (Array.isArray(stored)) for (const record of stored as Identified[]) records.set(record.id, record);
    this.#collections.set(collection, records);
    return records;
  }
}
