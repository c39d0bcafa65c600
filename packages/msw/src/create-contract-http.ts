import { http, type HttpResponseResolver } from 'msw';
import type { ContractHttp, ContractMethod } from './contract-http-types';
import { readBaseUrl } from './read-base-url';

/**
 * MSW's `http` for the contract's operations at `baseUrl` (an http(s) origin and `/rest/v1`,
 * else a `TypeError`): `get('/receipts/{id}', resolver)` matches `${baseUrl}/receipts/:id`, with
 * the resolver typed from `@boundbook/types`.
 *
 * @example
 * ```ts
 * const api = createContractHttp('https://api.boundbook.test/rest/v1');
 * server.use(api.get('/receipts/{id}', () => HttpResponse.json({ message: 'Service unavailable.' }, { status: 503 })));
 * ```
 */
export function createContractHttp(baseUrl: string): ContractHttp {
  const { apiUrl } = readBaseUrl(baseUrl, 'createContractHttp');
  const factory =
    (method: ContractMethod) =>
    (path: string, resolver: HttpResponseResolver, options?: Parameters<typeof http.get>[2]) =>
      http[method](`${apiUrl}${path.replace(/\{(\w+)\}/g, ':$1')}`, resolver, options);
  return { get: factory('get'), post: factory('post'), put: factory('put'), delete: factory('delete') } as ContractHttp;
}
