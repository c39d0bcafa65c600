import type { FieldErrors } from './field-errors';

/**
 * Reports each item of a list of strings that repeats an earlier one, under `field.position`.
 * It stands in for joi's `array().unique()`, which compares items by deep equality before their
 * own rules run and so recurses through whatever nesting a client sends.
 *
 * @example
 * ```ts
 * reportDuplicates('events', ['*', '*'], errors); // errors['events.1']: 'The events.1 field has a duplicate value.'
 * ```
 */
export function reportDuplicates(field: string, values: readonly string[], errors: FieldErrors): void {
  const seen = new Set<string>();
  values.forEach((value, position) => {
    if (seen.has(value)) errors.add(`${field}.${position}`, `The ${field}.${position} field has a duplicate value.`);
    seen.add(value);
  });
}
