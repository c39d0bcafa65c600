/**
 * Numbered stand-ins for values that legitimately differ between faces (ids, tokens, secrets):
 * the n-th distinct value of a kind becomes `<kind:n>`, the same value always the same stand-in.
 * Two transcripts that refer to the same things in the same places thus stay equal, and a
 * reference to the wrong thing still shows.
 *
 * @example
 * ```ts
 * const placeholders = new Placeholders();
 * placeholders.for('receipt', 1042); // '<receipt:1>'
 * placeholders.for('receipt', 1043); // '<receipt:2>'
 * placeholders.for('receipt', 1042); // '<receipt:1>'
 * ```
 */
export class Placeholders {
  readonly #kinds = new Map<string, Map<string, string>>();

  /** The stand-in of `value` among the values of `kind`. */
  for(kind: string, value: string | number): string {
    let seen = this.#kinds.get(kind);
    if (seen === undefined) {
      seen = new Map();
      this.#kinds.set(kind, seen);
    }
    const key = String(value);
    let placeholder = seen.get(key);
    if (placeholder === undefined) {
      placeholder = `<${kind}:${seen.size + 1}>`;
      seen.set(key, placeholder);
    }
    return placeholder;
  }
}
