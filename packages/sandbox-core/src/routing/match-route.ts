import type { Route } from './route-table';

/** A route that answers a request, with its numeric `:id` (`0` when it has none). */
export interface RouteMatch {
  route: Route;
  id: number;
}

const ID_SEGMENT = /^\d+$/;

/**
 * Finds the route of a method and path; `undefined` when none answers them. An `:id` segment
 * matches digits only, so `/receipts/abc` is an unknown route.
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
    const id = matchPath(route.segments, segments);
    if (id !== undefined) return { route, id };
  }
  return undefined;
}

function matchPath(pattern: readonly string[], segments: readonly string[]): number | undefined {
  if (pattern.length !== segments.length) return undefined;
  let id = 0;
  for (let position = 0; position < pattern.length; position += 1) {
    const expected = pattern[position];
    const actual = segments[position] ?? '';
    if (expected === ':id') {
      if (!ID_SEGMENT.test(actual)) return undefined;
      id = Number(actual);
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return id;
}
