import { API_PREFIX } from './route-table';

/**
 * Whether a path is under the service API's base path `/rest/v1`.
 *
 * @example
 * ```ts
 * isApiPath('/rest/v1/receipts'); // true
 * isApiPath('/_sandbox/clock'); // false
 * ```
 */
export function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}
