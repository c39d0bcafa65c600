import { ACCOUNT_TYPES } from '@boundbook/types';
import Joi from 'joi';
import { trimmedString } from '../validation/joi-rules';
import { lazySchema } from '../validation/lazy-schema';

/** Fields of `POST /_sandbox/accounts`, in the order errors are reported. */
export const ACCOUNT_FIELDS = ['account_type', 'name', 'books'] as const;

/**
 * The per-field rules of `POST /_sandbox/accounts`; distinct names and the reserved `Main` are
 * checked after trimming.
 *
 * @example
 * ```ts
 * validateFields(ACCOUNT_SCHEMA, input, errors, new Set());
 * ```
 */
export const ACCOUNT_SCHEMA = lazySchema(() => Joi.object({
  account_type: Joi.string().valid(...ACCOUNT_TYPES),
  name: trimmedString(255),
  books: Joi.array().max(50).items(trimmedString(100)),
}));
