/**
 * Runtime constants of the Logbook Service. Each value is checked against `openapi/openapi.yaml`
 * by this package's tests, so the constants and the contract cannot drift apart.
 */

/**
 * Names of the events the service fires, in the order of the interface document.
 *
 * @example
 * ```ts
 * import { WEBHOOK_EVENT_NAMES } from '@fflkit/types';
 *
 * WEBHOOK_EVENT_NAMES.includes('receipt.created'); // true
 * ```
 */
export const WEBHOOK_EVENT_NAMES = [
  'receipt.created',
  'receipt.updated',
  'receipt.disposed',
  'receipt.deleted',
  'ping',
] as const;

/**
 * The subscription value that subscribes an endpoint to every event. It is never fired itself.
 *
 * @example
 * ```ts
 * import { LogbookClient } from '@fflkit/sdk';
 * import { WILDCARD_SUBSCRIPTION } from '@fflkit/types';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * const { endpoint } = await logbook.webhooks.create({ url: 'https://pos.example/webhooks', events: [WILDCARD_SUBSCRIPTION] });
 * endpoint.events; // ['*']: every event, those added later included
 * ```
 */
export const WILDCARD_SUBSCRIPTION = '*';

/**
 * Statuses of a receipt: on hand until a disposition is recorded.
 *
 * @example
 * ```ts
 * import { RECEIPT_STATUSES } from '@fflkit/types';
 *
 * RECEIPT_STATUSES; // ['on_hand', 'disposed']
 * ```
 */
export const RECEIPT_STATUSES = ['on_hand', 'disposed'] as const;

/**
 * Permissions an API key can hold: read for GET, write for POST and PUT, delete for DELETE.
 *
 * @example
 * ```ts
 * import { PERMISSIONS } from '@fflkit/types';
 *
 * PERMISSIONS.includes('write'); // true
 * ```
 */
export const PERMISSIONS = ['read', 'write', 'delete'] as const;

/**
 * Account types known to the service. Only {@link ELIGIBLE_ACCOUNT_TYPES} may use the API.
 *
 * @example
 * ```ts
 * import { ACCOUNT_TYPES } from '@fflkit/types';
 *
 * ACCOUNT_TYPES; // ['dealer', 'manufacturer', 'importer', 'collector']
 * ```
 */
export const ACCOUNT_TYPES = ['dealer', 'manufacturer', 'importer', 'collector'] as const;

/**
 * Account types that may use the API; every other type gets 403 on every call.
 *
 * @example
 * ```ts
 * import { ELIGIBLE_ACCOUNT_TYPES, type AccountType } from '@fflkit/types';
 *
 * const mayUseApi = (type: AccountType) => ELIGIBLE_ACCOUNT_TYPES.some((eligible) => eligible === type);
 * mayUseApi('collector'); // false: a collector gets 403 on every call
 * ```
 */
export const ELIGIBLE_ACCOUNT_TYPES = ['dealer', 'manufacturer', 'importer'] as const;

/**
 * Fields that `GET /search` can search; all of them when `field` is absent.
 *
 * @example
 * ```ts
 * import { LogbookClient } from '@fflkit/sdk';
 * import { SEARCH_FIELDS } from '@fflkit/types';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * SEARCH_FIELDS[1]; // 'manufacturer'
 * const { data } = await logbook.search.list({ q: 'glock', field: SEARCH_FIELDS[1] }); // receipts whose manufacturer contains 'glock', in any case
 * ```
 */
export const SEARCH_FIELDS = [
  'serial_number',
  'manufacturer',
  'model',
  'type',
  'caliber',
  'received_from',
  'book',
] as const;

/**
 * Results of a NICS background check as recorded in a receipt's E4473 data.
 *
 * @example
 * ```ts
 * import { NICS_RESULTS } from '@fflkit/types';
 *
 * NICS_RESULTS.includes('proceed'); // true
 * ```
 */
export const NICS_RESULTS = ['proceed', 'delayed', 'denied', 'cancelled'] as const;

/**
 * Largest `per_page` of any paginated list; a larger value is a 422.
 *
 * @example
 * ```ts
 * import { LogbookClient } from '@fflkit/sdk';
 * import { MAX_PER_PAGE } from '@fflkit/types';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * for await (const receipt of logbook.receipts.iterate({ per_page: MAX_PER_PAGE })) console.log(receipt.serial_number); // 200 a request
 * ```
 */
export const MAX_PER_PAGE = 200;

/**
 * `per_page` of a paginated list when the request does not give one.
 *
 * @example
 * ```ts
 * import { DEFAULT_PER_PAGE } from '@fflkit/types';
 *
 * DEFAULT_PER_PAGE; // 25
 * ```
 */
export const DEFAULT_PER_PAGE = 25;

/**
 * Requests allowed per token in one minute; the excess gets 429.
 *
 * @example
 * ```ts
 * import { RATE_LIMIT_PER_MINUTE } from '@fflkit/types';
 *
 * RATE_LIMIT_PER_MINUTE; // 60
 * ```
 */
export const RATE_LIMIT_PER_MINUTE = 60;

/**
 * Seconds a webhook receiver has to answer before the attempt fails.
 *
 * @example
 * ```ts
 * import { WEBHOOK_TIMEOUT_SECONDS } from '@fflkit/types';
 *
 * WEBHOOK_TIMEOUT_SECONDS; // 5
 * ```
 */
export const WEBHOOK_TIMEOUT_SECONDS = 5;

/**
 * Delays in seconds before each retry of a failed delivery. The first three are the service's;
 * the rest are this toolkit's choice. After the last retry fails the delivery is failed.
 *
 * @example
 * ```ts
 * import { WEBHOOK_RETRY_DELAYS_SECONDS } from '@fflkit/types';
 *
 * WEBHOOK_RETRY_DELAYS_SECONDS[0]; // 60: the first retry comes a minute after the first attempt
 * ```
 */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200, 18000, 36000, 36000] as const;

/**
 * Consecutive failed attempts after which an endpoint is disabled.
 *
 * @example
 * ```ts
 * import { WEBHOOK_DISABLE_AFTER_FAILURES } from '@fflkit/types';
 *
 * WEBHOOK_DISABLE_AFTER_FAILURES; // 10
 * ```
 */
export const WEBHOOK_DISABLE_AFTER_FAILURES = 10;

/**
 * Prefix of every webhook signing secret.
 *
 * @example
 * ```ts
 * import { SECRET_PREFIX } from '@fflkit/types';
 *
 * 'whsec_test_3f9a1c7e5b2d4f6a'.startsWith(SECRET_PREFIX); // true: the prefix is part of the secret and of its HMAC key
 * ```
 */
export const SECRET_PREFIX = 'whsec_';

/**
 * Prefix of the `X-SVC-Signature` header value, followed by 64 lowercase hex digits.
 *
 * @example
 * ```ts
 * import { SIGNATURE_PREFIX } from '@fflkit/types';
 *
 * SIGNATURE_PREFIX; // 'sha256='
 * ```
 */
export const SIGNATURE_PREFIX = 'sha256=';

/**
 * `User-Agent` of webhook deliveries.
 *
 * @example
 * ```ts
 * import { WEBHOOK_USER_AGENT } from '@fflkit/types';
 *
 * WEBHOOK_USER_AGENT; // 'Logbook-Webhook/1.0'
 * ```
 */
export const WEBHOOK_USER_AGENT = 'Logbook-Webhook/1.0';

/**
 * Names of the headers of webhook deliveries and of rate-limited responses, in their canonical
 * case. HTTP header names are case-insensitive; `Headers` objects lower-case them.
 *
 * @example
 * ```ts
 * import { HEADERS } from '@fflkit/types';
 *
 * const request = new Request('https://pos.example/webhooks', { method: 'POST', headers: { 'x-svc-delivery': 'c0b5e1a2-7d4f-4e8a-9b3c-2f6d8e1a4b7c' } });
 * request.headers.get(HEADERS.delivery); // 'c0b5e1a2-7d4f-4e8a-9b3c-2f6d8e1a4b7c': the lookup ignores case
 * ```
 */
export const HEADERS = {
  event: 'X-SVC-Event',
  signature: 'X-SVC-Signature',
  delivery: 'X-SVC-Delivery',
  rateLimitLimit: 'X-RateLimit-Limit',
  rateLimitRemaining: 'X-RateLimit-Remaining',
  rateLimitReset: 'X-RateLimit-Reset',
  retryAfter: 'Retry-After',
} as const;
