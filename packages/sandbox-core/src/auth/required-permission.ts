import type { Permission } from '@boundbook/types';

/**
 * The permission a method needs on the service API: read for GET, write for POST and PUT,
 * delete for DELETE.
 *
 * @example
 * ```ts
 * requiredPermission('PUT'); // 'write'
 * ```
 */
export function requiredPermission(method: string): Permission {
  if (method === 'GET') return 'read';
  if (method === 'DELETE') return 'delete';
  return 'write';
}
