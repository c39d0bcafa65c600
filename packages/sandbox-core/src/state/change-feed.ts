import type { CoreChange, CoreChangeSet, CoreCollection, CoreCollections } from './core-change';
import type { Sequences } from './core-state';

/**
 * Where a core's operations report, in the same synchronous step as each change, which records
 * they put in place or took out. A feed records only once {@link ChangeFeed.start} was called
 * (a persister asked for it); until then every report is dropped, so a core that nobody persists
 * does not accumulate changes. Each report costs one array push.
 *
 * Every place that changes a record of a snapshot's collections reports it here: a stored
 * record is never changed without an upsert or a removal.
 *
 * @example
 * ```ts
 * state.feed.upsert('receipts', receipt);
 * state.feed.remove('webhooks', webhook.id);
 * ```
 */
export class ChangeFeed {
  #recording = false;
  #base = 0;
  #changes: CoreChange[] = [];

  /** Whether changes are being recorded. */
  get recording(): boolean {
    return this.#recording;
  }

  /** Starts recording the changes that follow `version`. */
  start(version: number): void {
    this.#recording = true;
    this.#base = version;
    this.#changes = [];
  }

  /** Reports that `record` is now the record of its id in `collection`. */
  upsert<C extends CoreCollection>(collection: C, record: CoreCollections[C]): void {
    if (this.#recording) this.#changes.push({ op: 'upsert', collection, record } as CoreChange);
  }

  /** Reports that the record of `id` left `collection`. */
  remove<C extends CoreCollection>(collection: C, id: CoreCollections[C]['id']): void {
    if (this.#recording) this.#changes.push({ op: 'remove', collection, id } as CoreChange);
  }

  /**
   * The changes recorded since the last call (or since {@link ChangeFeed.start}), leading to
   * `version`; the feed then starts afresh from `version`. Throws a `TypeError` when the feed
   * is not recording.
   */
  take(version: number, sequences: Readonly<Sequences>): CoreChangeSet {
    if (!this.#recording) {
      throw new TypeError(
        '[@boundbook/sandbox-core] takeChanges() needs a core made with createSandboxCore({ recordChanges: true })',
      );
    }
    const set: CoreChangeSet = { base: this.#base, version, sequences: { ...sequences }, changes: this.#changes };
    this.#base = version;
    this.#changes = [];
    return set;
  }
}
