import { requestOrigin } from '../http/request-origin';
import type { AccountContext, AccountOperation, OperationResult } from './operation';

/** Answers kept by default: enough for every page a few clients walk, small next to the state. */
export const ANSWER_CACHE_LIMIT = 256;

/**
 * The answers of read-only operations (lists) while the state's version is unchanged, keyed by
 * account, origin, path and query as sent: what such an answer depends on. Any write moves the
 * version and empties the cache; past `limit` answers, the least recently used is dropped. Only
 * the operation is skipped: authentication, rate limiting and the request log run per request.
 * A kept answer's body is frozen and the same object on every hit, so a serializer may keep its
 * bytes by identity.
 *
 * @example
 * ```ts
 * const answers = new AnswerCache();
 * const result = answers.answer(listReceipts, context); // runs listReceipts
 * answers.answer(listReceipts, context) === result; // true until the next write
 * ```
 */
export class AnswerCache {
  readonly #entries = new Map<string, OperationResult>();
  readonly #limit: number;
  #version = -1;

  constructor(limit = ANSWER_CACHE_LIMIT) {
    this.#limit = limit;
  }

  /** Answers kept now (at the state's version of the last call). */
  get size(): number {
    return this.#entries.size;
  }

  /** The answer of `operation` to `context`: the kept one, or a new one, then kept. */
  answer(operation: AccountOperation, context: AccountContext): OperationResult {
    const { state, account, request } = context;
    if (state.version !== this.#version) {
      this.#entries.clear();
      this.#version = state.version;
    }
    const key = `${account.record.id} ${requestOrigin(request.headers)}${request.path}?${request.query}`;
    const kept = this.#entries.get(key);
    if (kept !== undefined) {
      // Moved to the end: the Map's order is the order of use.
      this.#entries.delete(key);
      this.#entries.set(key, kept);
      return kept;
    }
    const result = freezeAnswer(operation(context));
    if (this.#entries.size >= this.#limit) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, result);
    return result;
  }
}

/** Freezes an answer and its body's plain objects and arrays (records already are). */
function freezeAnswer(result: OperationResult): OperationResult {
  deepFreeze(result.body);
  return Object.freeze(result);
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const member of Object.values(value)) deepFreeze(member);
}
