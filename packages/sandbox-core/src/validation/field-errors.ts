/**
 * Messages per request field, collected across every rule before a 422 is answered, so that the
 * answer reports every failing field and not just the first.
 *
 * @example
 * ```ts
 * const errors = new FieldErrors();
 * errors.add('serial_number', 'The serial number field is required.');
 * errors.has('serial_number'); // true
 * ```
 */
export class FieldErrors {
  readonly #messages = new Map<string, string[]>();

  /** Adds a message to a field. */
  add(field: string, message: string): void {
    const list = this.#messages.get(field);
    if (list === undefined) this.#messages.set(field, [message]);
    else if (!list.includes(message)) list.push(message);
  }

  /** Adds a message to a field that has none yet: one rule's failure hides the later rules. */
  addFirst(field: string, message: string): void {
    if (!this.#messages.has(field)) this.#messages.set(field, [message]);
  }

  /** Whether the field already failed a rule. */
  has(field: string): boolean {
    return this.#messages.has(field);
  }

  /** Whether no rule failed. */
  get isEmpty(): boolean {
    return this.#messages.size === 0;
  }

  /**
   * The messages as the contract's `errors` object, fields in the given order first (the order
   * of the request schema), then any other in the order they failed.
   */
  toObject(order: readonly string[] = []): Record<string, string[]> {
    const result: Record<string, string[]> = {};
    for (const field of order) {
      const list = this.#messages.get(field);
      if (list !== undefined) result[field] = list;
    }
    for (const [field, list] of this.#messages) {
      if (!Object.hasOwn(result, field)) result[field] = list;
    }
    return result;
  }
}
