import { createMockBoundBook } from '@boundbook/msw';
import { BoundBook } from '@boundbook/sdk';
import { setupServer } from 'msw/node';

/** The base URL the code under test is configured with; nothing listens there. */
export const BASE_URL = 'https://logbook.example.test/rest/v1';

/** The service, answered in process by the sandbox's own rules. */
export const mock = createMockBoundBook({ baseUrl: BASE_URL });

/** MSW's interceptor for Node, started and stopped by `test/setup.ts`. */
export const server = setupServer(...mock.handlers);

/**
 * A client on a new, isolated account, as the application would make it, without the client's
 * limiter and retries: the mock enforces the service's limit itself, and they would only wait.
 */
export function newClient(token = mock.createAccount().token): BoundBook {
  return new BoundBook({ baseUrl: BASE_URL, token, rateLimit: false, maxRetries: 0 });
}
