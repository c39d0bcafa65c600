import type { paths } from '@fflkit/types';
import {
  http,
  type DefaultBodyType,
  type HttpHandler,
  type HttpResponseResolver,
  type RequestHandlerOptions,
} from 'msw';
import { misuseError } from './errors';

// MSW's `http` narrowed to the contract's operations at a base URL, and the base URL itself: the
// mock's handlers and the typed overrides both answer at an origin followed by `/rest/v1`.

/** The methods the service's operations use. */
export type ContractMethod = 'get' | 'post' | 'put' | 'delete';

/** The contract's paths (relative to `/rest/v1`, such as `/receipts/{id}`) that have `method`. */
export type ContractPath<M extends ContractMethod> = {
  [P in keyof paths]: [NonNullable<paths[P][M]>] extends [never] ? never : P;
}[keyof paths];

/** The contract's operation at `path` and `method`, as openapi-typescript generated it. */
export type ContractOperation<P extends keyof paths, M extends ContractMethod> = NonNullable<paths[P][M]>;

/** The `application/json` body of a request or response object of the generated types; `never` without one. */
export type ContractJsonBody<T> = T extends { content: { 'application/json': infer Body extends DefaultBodyType } }
  ? Body
  : never;

/** The path parameters of an operation, as MSW gives them: strings. */
export type ContractPathParams<P extends keyof paths, M extends ContractMethod> =
  ContractOperation<P, M> extends { parameters: { path: infer Params } }
    ? [Params] extends [Record<string, unknown>]
      ? { [K in keyof Params]: string }
      : Record<string, never>
    : Record<string, never>;

/** The JSON body the operation takes; `never` when it takes none. */
export type ContractRequestBody<P extends keyof paths, M extends ContractMethod> = ContractJsonBody<
  NonNullable<ContractOperation<P, M> extends { requestBody?: infer Body } ? Body : never>
>;

/**
 * Every JSON body the contract lets the operation answer with (its success body and its error
 * bodies), plus `undefined` for answers without a body such as a 204.
 */
export type ContractResponseBody<P extends keyof paths, M extends ContractMethod> =
  | {
      [S in keyof ContractOperation<P, M>['responses']]: ContractJsonBody<ContractOperation<P, M>['responses'][S]>;
    }[keyof ContractOperation<P, M>['responses']]
  | undefined;

/**
 * The resolver of one contract operation: params, request body and response body typed from the
 * contract.
 *
 * @example
 * ```ts
 * import { createMockLogbook, type ContractResolver } from '@fflkit/msw';
 * import { HttpResponse } from 'msw';
 * import { setupServer } from 'msw/node';
 *
 * const mock = createMockLogbook({ baseUrl: 'https://logbook.example.test/rest/v1' });
 * const server = setupServer(...mock.handlers);
 * const outage: ContractResolver<'/receipts', 'post'> = () =>
 *   HttpResponse.json({ message: 'Service unavailable.' }, { status: 503 });
 * server.use(mock.http.post('/receipts', outage));
 * ```
 */
export type ContractResolver<P extends keyof paths, M extends ContractMethod> = HttpResponseResolver<
  ContractPathParams<P, M>,
  ContractRequestBody<P, M>,
  ContractResponseBody<P, M>
>;

/** Makes a handler for one method: the path is one of the contract's, written as the contract writes it. */
export type ContractHandlerFactory<M extends ContractMethod> = <P extends ContractPath<M>>(
  path: P,
  resolver: ContractResolver<P, M>,
  options?: RequestHandlerOptions,
) => HttpHandler;

/**
 * MSW's `http`, narrowed to the contract: paths are the contract's (`/receipts/{id}`), path
 * parameters, request bodies and response bodies are its types. For handlers that override the
 * mock for one test: a 500, a network error, a slow answer.
 *
 * @example
 * ```ts
 * import { createMockLogbook } from '@fflkit/msw';
 * import { HttpResponse } from 'msw';
 * import { setupServer } from 'msw/node';
 *
 * const mock = createMockLogbook({ baseUrl: 'https://logbook.example.test/rest/v1' });
 * const server = setupServer(...mock.handlers);
 * server.use(mock.http.get('/receipts/{id}', ({ params }) => (params.id === '42' ? HttpResponse.error() : undefined)));
 * ```
 */
export type ContractHttp = { readonly [M in ContractMethod]: ContractHandlerFactory<M> };

/**
 * MSW's `http` for the contract's operations at `baseUrl` (an http(s) origin and `/rest/v1`,
 * else a `TypeError`): `get('/receipts/{id}', resolver)` matches `${baseUrl}/receipts/:id`, with
 * the resolver typed from `@fflkit/types`.
 *
 * @example
 * ```ts
 * import { createContractHttp } from '@fflkit/msw';
 * import { HttpResponse } from 'msw';
 * import { setupServer } from 'msw/node';
 *
 * const api = createContractHttp('https://logbook.example.test/rest/v1');
 * const server = setupServer();
 * server.use(api.get('/receipts/{id}', () => HttpResponse.json({ message: 'Service unavailable.' }, { status: 503 })));
 * ```
 */
export function createContractHttp(baseUrl: string): ContractHttp {
  const { apiUrl } = readBaseUrl(baseUrl, 'createContractHttp');
  const factory =
    (method: ContractMethod) => (path: string, resolver: HttpResponseResolver, options?: RequestHandlerOptions) =>
      http[method](`${apiUrl}${path.replace(/\{(\w+)\}/g, ':$1')}`, resolver, options);
  return { get: factory('get'), post: factory('post'), put: factory('put'), delete: factory('delete') } as ContractHttp;
}

/** Where the mock answers: the API's base URL and its origin. */
export interface MockEndpoints {
  /** The base URL without a trailing slash: the origin and `/rest/v1`. */
  readonly apiUrl: string;
  /** The origin, where `/_sandbox` answers. */
  readonly origin: string;
}

/**
 * Checks a base URL and splits it into what the handlers need (`https://logbook.example.test/rest/v1/`
 * gives that URL without its slash and `https://logbook.example.test`). Throws a `TypeError` naming
 * the caller unless it is an absolute http(s) URL whose path is `/rest/v1`, as the service's and
 * the sandbox's are: the core builds pagination links from the origin and the path.
 */
export function readBaseUrl(baseUrl: unknown, caller: string): MockEndpoints {
  let url: URL | undefined;
  try {
    url = typeof baseUrl === 'string' ? new URL(baseUrl) : undefined;
  } catch {
    url = undefined;
  }
  const path = url?.pathname.replace(/\/+$/, '') ?? '';
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || path !== '/rest/v1') {
    throw misuseError(
      `${caller}(): baseUrl must be an http(s) origin followed by /rest/v1, such as https://logbook.example.test/rest/v1; got ${JSON.stringify(baseUrl)}`,
    );
  }
  return { apiUrl: `${url.origin}${path}`, origin: url.origin };
}
