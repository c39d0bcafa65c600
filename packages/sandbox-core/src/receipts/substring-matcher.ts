const SPECIAL = /[.*+?^${}()|[\]\\]/g;

/**
 * A test for whether a text holds a term, ignoring case (Unicode simple case folding). One
 * compiled expression serves every record of a scan, without a lower-cased copy of each field.
 *
 * @example
 * ```ts
 * const matches = substringMatcher('exa00');
 * matches('EXA0012345'); // true
 * ```
 */
export function substringMatcher(term: string): (text: string) => boolean {
  const pattern = new RegExp(term.replace(SPECIAL, '\\$&'), 'iu');
  return (text) => pattern.test(text);
}
