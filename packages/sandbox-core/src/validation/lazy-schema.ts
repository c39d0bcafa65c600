import type { ObjectSchema } from 'joi';

/** A joi schema built on first use, then kept. */
export type LazySchema = () => ObjectSchema;

/**
 * Defers building a joi schema to its first use, so that loading the core (and starting the
 * sandbox) builds no schema that the first requests do not need.
 *
 * @example
 * ```ts
 * const SCHEMA = lazySchema(() => Joi.object({ name: trimmedString(100).required() }));
 * validateFields(SCHEMA, body, errors, new Set(['name']));
 * ```
 */
export function lazySchema(build: () => ObjectSchema): LazySchema {
  let schema: ObjectSchema | undefined;
  return () => (schema ??= build());
}
