import type { paths } from '@boundbook/types';
import type { DefaultBodyType, HttpHandler, HttpResponseResolver, RequestHandlerOptions } from 'msw';

/** The methods the service's operations use. */
export type ContractMethod = 'get' | 'post' | 'put' | 'delete';

/** The contract's paths (relative to `/rest/v1`, such as `/receipts/{id}`) that have `method`. */
export type ContractPath<M extends ContractMethod> = {
  [P in keyof paths]: [NonNullable<paths[P][M]>] extends [never] ? never : P;
}[keyof paths];

/** The contract's operation at `path` and `method`, as openapi-typescript generated it. */
export type ContractOperation<P extends keyof paths, M extends ContractMethod> = NonNullable<paths[P][M]>;

/** The `application/json` body of a request or response object of the generated types; `never` without one. */
export type ContractJsonBody<T> = T extends { content: { 'application/json': infer Body extends DefaultBodyType } } ? Body : never;

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
  | { [S in keyof ContractOperation<P, M>['responses']]: ContractJsonBody<ContractOperation<P, M>['responses'][S]> }[keyof ContractOperation<P, M>['responses']]
  | undefined;

/**
 * The resolver of one contract operation: params, request body and response body typed from the
 * contract.
 *
 * @example
 * ```ts
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
 * server.use(mock.http.get('/receipts/{id}', ({ params }) => (params.id === '42' ? HttpResponse.error() : undefined)));
 * ```
 */
export type ContractHttp = { readonly [M in ContractMethod]: ContractHandlerFactory<M> };
