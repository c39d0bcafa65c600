import { PERMISSIONS, type Permission } from '@boundbook/types';
import Joi from 'joi';
import { pickFields } from '../http/pick-fields';
import { readJsonObject } from '../http/read-json-object';
import type { AccountOperation } from '../routing/operation';
import { issueToken } from '../tokens/issue-token';
import { renderToken } from '../tokens/render-token';
import { FieldErrors } from '../validation/field-errors';
import { trimmedString } from '../validation/joi-rules';
import { lazySchema } from '../validation/lazy-schema';
import { reportDuplicates } from '../validation/report-duplicates';
import { validateFields } from '../validation/validate-fields';
import { validationFailed } from '../validation/validation-failed';

const FIELDS = ['permissions', 'name'] as const;

const SCHEMA = lazySchema(() => Joi.object({
  permissions: Joi.array().max(3).items(Joi.string().trim().valid(...PERMISSIONS)).required(),
  name: trimmedString(255).allow(null),
}));

/**
 * `POST /_sandbox/tokens`: another token of the caller's account with the given permissions.
 *
 * @example
 * ```ts
 * // body: { "permissions": ["read"], "name": "Inventory sync" }
 * createToken(context).status; // 201
 * ```
 */
export const createToken: AccountOperation = ({ state, env, request, account, nowMs }) => {
  const errors = new FieldErrors();
  const body = pickFields(readJsonObject(request.body), FIELDS);
  const value = validateFields(SCHEMA, body, errors, new Set(['permissions']));
  const permissions = value['permissions'] as Permission[] | undefined;
  if (permissions !== undefined) reportDuplicates('permissions', permissions, errors);
  if (!errors.isEmpty || permissions === undefined) throw validationFailed(errors, FIELDS);
  const name = (value['name'] as string | null | undefined) ?? null;
  const { record, token } = issueToken(state, env, account, permissions, name, nowMs);
  state.version += 1;
  return { status: 201, body: { data: renderToken(record), token } };
};
