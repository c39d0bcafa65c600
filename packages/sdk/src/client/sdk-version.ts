// Replaced with the package's version by the build (tsup `define`); absent when run from source.
declare const __BOUNDBOOK_SDK_VERSION__: string | undefined;

/**
 * This package's version, as the `User-Agent` carries it (`0.0.0-dev` when run from source).
 *
 * @example
 * ```ts
 * `my-pos/2.1 boundbook-sdk/${SDK_VERSION}`;
 * ```
 */
export const SDK_VERSION: string = typeof __BOUNDBOOK_SDK_VERSION__ === 'string' ? __BOUNDBOOK_SDK_VERSION__ : '0.0.0-dev';
