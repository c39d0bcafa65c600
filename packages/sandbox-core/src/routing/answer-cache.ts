import type { AccountContext, AccountOperation, OperationResult } from '../state/operation';
import { deepFreeze } from '../state/records';

/** Answers kept by default: enough for every page a few clients walk, small next to the state. */
const ANSWER_CACHE_LIMIT = 256;

/**
 * The answers of read-only operations (lists) while the state is unchanged, keyed by
 * account, origin, path and query as sent: what such an answer depends on. Any change to the
 * state empties the cache; past `limit` answers, the least recently used is dropped. Only
 * the operation is skipped: authentication, rate limiting and the request log run per request.
 * A kept answer's body is frozen and the same object on every hit, so a serializer may keep its
 * bytes by identity.
 */
export class AnswerCache {
  readonly #entries = new Map<string, OperationResult>();
  readonly #limit: number;
  #revision = -1;
  /** The key used last, whose answer is last in the order of use. */
  #last: string | undefined;

  constructor(limit = ANSWER_CACHE_LIMIT) {
    this.#limit = limit;
  }

  /** Answers kept now (at the state's revision of the last call). */
  get size(): number {
    return this.#entries.size;
  }

  /** The answer of `operation` to `context`: the kept one, or a new one, then kept. */
  answer(operation: AccountOperation, context: AccountContext): OperationResult {
    const { store, account, request } = context;
    if (store.revision !== this.#revision) {
      this.#entries.clear();
      this.#last = undefined;
      this.#revision = store.revision;
    }
    // The headers the origin is made of, as sent: no parsing on the way to a kept answer (the
    // reads benchmark), and the same headers always make the same origin.
    const { headers } = request;
    const key = `${account.record.id} ${headers['x-forwarded-proto'] ?? ''} ${headers['host'] ?? ''} ${request.path}?${request.query}`;
    const kept = this.#entries.get(key);
    if (kept !== undefined) {
      // Moved to the end, unless it is there: the Map's order is the order of use.
      if (key !== this.#last) {
        this.#entries.delete(key);
        this.#entries.set(key, kept);
        this.#last = key;
      }
      return kept;
    }
    const result = freezeAnswer(operation(context));
    if (this.#entries.size >= this.#limit) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, result);
    this.#last = key;
    return result;
  }
}

/** Freezes an answer and its body's plain objects and arrays (records already are). */
function freezeAnswer(result: OperationResult): OperationResult {
  deepFreeze(result.body);
  return Object.freeze(result);
}
