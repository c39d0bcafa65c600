interface Batch {
  readonly promise: Promise<void>;
  resolve(): void;
  reject(reason: unknown): void;
}

/**
 * Runs one write at a time and lets every request that arrives while a write is in flight share
 * the next single write, so that the number of writes follows the disk, not the request rate.
 *
 * A promise returned by {@link GroupCommit.request} resolves only after a write that started
 * after the call has finished, so the state the caller saw is in that write.
 */
export class GroupCommit {
  readonly #write: () => Promise<void>;
  #writing: Promise<void> | undefined;
  #next: Batch | undefined;

  constructor(write: () => Promise<void>) {
    this.#write = write;
  }

  /** Asks for a write; resolves once a write that started after this call is done. */
  request(): Promise<void> {
    this.#next ??= createBatch();
    const { promise } = this.#next;
    this.#writing ??= this.#drain();
    return promise;
  }

  /** Resolves once no write is in flight or waiting. */
  async idle(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#next !== undefined) {
        const batch = this.#next;
        this.#next = undefined;
        try {
          await this.#write();
          batch.resolve();
        } catch (error) {
          batch.reject(error);
        }
      }
    } finally {
      this.#writing = undefined;
    }
  }
}

function createBatch(): Batch {
  let resolve!: () => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<void>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}
