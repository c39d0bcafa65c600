/**
 * The body length a `Content-Length` header declares, or `undefined` when it declares none.
 *
 * @example
 * ```ts
 * declaredLength('1024'); // 1024
 * ```
 */
export function declaredLength(contentLength: string | null | undefined): number | undefined {
  if (!contentLength) return undefined;
  const length = Number(contentLength);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}
