import { ApiError } from './api-error';

/**
 * The contract's 403 for a token that lacks the permission the method needs.
 *
 * @example
 * ```ts
 * missingPermission('write').body.message; // 'This token lacks the write permission.'
 * ```
 */
export function missingPermission(permission: string): ApiError {
  return new ApiError(403, { message: `This token lacks the ${permission} permission.` });
}

/**
 * The contract's 403 for an account whose type may not use the API.
 *
 * @example
 * ```ts
 * ineligibleAccount('collector').body.message; // 'Accounts of type collector cannot use the API.'
 * ```
 */
export function ineligibleAccount(accountType: string): ApiError {
  return new ApiError(403, { message: `Accounts of type ${accountType} cannot use the API.` });
}
