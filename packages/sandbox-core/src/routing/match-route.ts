import type { Route } from './route-table';

/**
 * A route that answers a request, with its numeric `:id` (`0` when it has none) and the text of
 * its `:id` or `:uuid` segment, the UUID in lower case (`''` when it has none).
 */
export interface RouteMatch {
  route: Route;
  id: number;
  key: string;
}

const ID_SEGMENT = /^\d+$/;
const UUID_SEGMENT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Finds the route of a method and path; `undefined` when none answers them. An `:id` segment
 * matches digits only, so `/receipts/abc` is an unknown route; a `:uuid` segment matches a UUID
 * (a delivery's id).
 *
 * @example
 * ```ts
 * matchRoute(ROUTES, 'GET', '/rest/v1/receipts/12')?.id; // 12
 * ```
 */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch | undefined {
  const segments = path.split('/');
  for (const route of routes) {
    if (route.method !== method) continue;
    const match = matchPath(route.segments, segments);
    if (match !== undefined) return { route, ...match };
  }
  return undefined;
}

function matchPath(pattern: readonly string[], segments: readonly string[]): { id: number; key: string } | undefined {
  if (pattern.length !== segments.length) return undefined;
  let id = 0;
  let key = '';
  for (let position = 0; position < pattern.length; position += 1) {
    const expected = pattern[position];
    const actual = segments[position] ?? '';
    if (expected === ':id') {
      if (!ID_SEGMENT.test(actual)) return undefined;
      id = Number(actual);
      key = actual;
    } else if (expected === ':uuid') {
      if (!UUID_SEGMENT.test(actual)) return undefined;
      key = actual.toLowerCase();
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return { id, key };
}
