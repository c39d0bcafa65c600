import { describe, expect, it } from 'vitest';
import { matchRoute, ROUTES } from '../../src/routing/routes';

/** The route a walk of every route in order finds: what matchRoute answered before its lookup of fixed paths. */
function walk(method: string, path: string) {
  const segments = path.split('/');
  return ROUTES.find(
    (route) =>
      route.method === method &&
      route.segments.length === segments.length &&
      route.segments.every((expected, at) =>
        expected === ':id'
          ? /^\d+$/.test(segments[at]!)
          : expected === ':key'
            ? segments[at] !== ''
            : expected === segments[at],
      ),
  );
}

describe('matchRoute(method, path)', () => {
  it('finds for every route the route a walk of all of them finds first, fixed paths and paths with ids alike', () => {
    for (const route of ROUTES) {
      const path = route.path.replace(':id', '12').replace(':key', 'export');
      const match = matchRoute(route.method, path);
      expect(match?.route, `${route.method} ${path}`).toBe(walk(route.method, path));
    }
  });

  it('gives the id and key of a path with one, and nothing for a path no route has', () => {
    expect(matchRoute('GET', '/rest/v1/receipts/12')).toMatchObject({ id: 12, key: '12' });
    expect(matchRoute('GET', '/rest/v1/receipts')).toMatchObject({ id: 0, key: '' });
    expect(matchRoute('GET', '/rest/v1/receipts/abc')).toBeUndefined();
    expect(matchRoute('PATCH', '/rest/v1/receipts')).toBeUndefined();
  });
});
