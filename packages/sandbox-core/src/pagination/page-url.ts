/**
 * The URL of another page of the same list: the request's query as the client wrote it, with
 * `page` set (in place, or appended when absent).
 *
 * @example
 * ```ts
 * pageUrl('http://localhost/rest/v1/receipts', 'status=on_hand&page=2', 3);
 * // 'http://localhost/rest/v1/receipts?status=on_hand&page=3'
 * ```
 */
export function pageUrl(path: string, query: string, page: number): string {
  const parts = query === '' ? [] : query.split('&');
  let replaced = false;
  const kept: string[] = [];
  for (const part of parts) {
    if (!isPagePart(part)) {
      kept.push(part);
    } else if (!replaced) {
      kept.push(`page=${page}`);
      replaced = true;
    }
  }
  if (!replaced) kept.push(`page=${page}`);
  return `${path}?${kept.join('&')}`;
}

function isPagePart(part: string): boolean {
  const equals = part.indexOf('=');
  const name = equals === -1 ? part : part.slice(0, equals);
  try {
    return decodeURIComponent(name.replaceAll('+', ' ')) === 'page';
  } catch {
    return false;
  }
}
