import type { MockBoundBookOptions } from './mock-boundbook-types';
import { readBaseUrl, type MockEndpoints } from './read-base-url';

/** The options of {@link createMockBoundBook}, checked, with their defaults. */
export interface MockSettings extends MockEndpoints {
  readonly deliverWebhooks: boolean;
  readonly rateLimit: number | undefined;
  readonly now: (() => number) | undefined;
}

/**
 * Checks the options of `createMockBoundBook`, throwing a `TypeError` that names the option and
 * what it takes, before anything is made.
 *
 * @example
 * ```ts
 * readMockOptions({ baseUrl: 'https://api.boundbook.test/rest/v1' }).deliverWebhooks; // false
 * ```
 */
export function readMockOptions(options: MockBoundBookOptions | undefined): MockSettings {
  const fail = (message: string): never => {
    throw new TypeError(`[@boundbook/msw] createMockBoundBook(): ${message}`);
  };
  if (typeof options !== 'object' || options === null) {
    return fail("pass the options, at least { baseUrl: 'https://api.boundbook.test/rest/v1' }");
  }
  const { deliverWebhooks, rateLimit, now } = options;
  if (deliverWebhooks !== undefined && typeof deliverWebhooks !== 'boolean') fail('deliverWebhooks must be true or false');
  if (rateLimit !== undefined && !(Number.isSafeInteger(rateLimit) && rateLimit >= 0)) {
    fail(`rateLimit must be a whole number of requests per minute per token, or 0 to lift the limit; got ${String(rateLimit)}`);
  }
  if (now !== undefined && typeof now !== 'function') fail('now must be a function returning epoch milliseconds, such as () => Date.now()');
  return { ...readBaseUrl(options.baseUrl, 'createMockBoundBook'), deliverWebhooks: deliverWebhooks ?? false, rateLimit, now };
}
