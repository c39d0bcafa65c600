import type { paths } from '@boundbook/types';
import type { Client } from 'openapi-fetch';

/**
 * The openapi-fetch client behind `bb.raw`, typed by the contract's `paths`. It shares the
 * client's token, time-out, retries and rate limiter, and returns `{ data, error, response }`
 * instead of throwing for error statuses.
 *
 * @example
 * ```ts
 * const raw: RawClient = bb.raw;
 * const { data, error, response } = await raw.GET('/receipts/{id}', { params: { path: { id: 42 } } });
 * ```
 */
export type RawClient = Client<paths>;
