import openapiFetch from 'openapi-fetch';

// Set by the build: true in the CommonJS build only. There, Node's interop makes the default import
// openapi-fetch's whole `exports` object, whose `default` is `createClient`.
declare const __BOUNDBOOK_CJS__: boolean | undefined;

/**
 * openapi-fetch's `createClient`, from its ES module build or its CommonJS one.
 *
 * @example
 * ```ts
 * const raw = createClient<paths>({ baseUrl: 'https://logbook.example.com/rest/v1' });
 * ```
 */
export const createClient: typeof openapiFetch =
  typeof __BOUNDBOOK_CJS__ === 'boolean' && __BOUNDBOOK_CJS__
    ? (openapiFetch as unknown as { default: typeof openapiFetch }).default
    : openapiFetch;
