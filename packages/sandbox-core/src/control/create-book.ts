import Joi from 'joi';
import { addBook } from '../books/add-book';
import { renderBook } from '../books/render-book';
import { pickFields } from '../http/pick-fields';
import { readJsonObject } from '../http/read-json-object';
import type { AccountOperation } from '../routing/operation';
import { FieldErrors } from '../validation/field-errors';
import { trimmedString } from '../validation/joi-rules';
import { lazySchema } from '../validation/lazy-schema';
import { validateFields } from '../validation/validate-fields';
import { validationFailed } from '../validation/validation-failed';

const FIELDS = ['name'] as const;
const SCHEMA = lazySchema(() => Joi.object({ name: trimmedString(100).required() }));

/**
 * `POST /_sandbox/books`: adds an empty book; a name the account has is 422.
 *
 * @example
 * ```ts
 * // body: { "name": "Consignment" }
 * createBook(context).status; // 201
 * ```
 */
export const createBook: AccountOperation = ({ state, request, account, nowMs }) => {
  const errors = new FieldErrors();
  const body = pickFields(readJsonObject(request.body), FIELDS);
  const value = validateFields(SCHEMA, body, errors, new Set(FIELDS));
  const name = value['name'] as string | undefined;
  if (name !== undefined && account.books.has(name)) {
    errors.add('name', 'The name has already been taken.');
  }
  if (!errors.isEmpty || name === undefined) throw validationFailed(errors, FIELDS);
  const book = addBook(state, account, name, nowMs);
  state.version += 1;
  return { status: 201, body: { data: renderBook(book) } };
};
