import { createMockLogbook } from '@fflkit/msw';
import { LogbookClient, systemClock, type Clock } from '@fflkit/sdk';
import { setupServer } from 'msw/node';

/** The base URL the code under test is configured with; nothing listens there. */
export const BASE_URL = 'https://logbook.example.test/rest/v1';

/** The service, answered in process by the sandbox's own rules. */
export const mock = createMockLogbook({ baseUrl: BASE_URL });

/** MSW's interceptor for Node, started and stopped by `test/setup.ts`. */
export const server = setupServer(...mock.handlers);

/**
 * A client on a new, isolated account, as the application would make it, without the client's
 * limiter and retries: the mock enforces the service's limit itself, and they would only wait.
 */
export function newClient(token = mock.createAccount().token): LogbookClient {
  return new LogbookClient({ baseUrl: BASE_URL, token, rateLimit: false, maxRetries: 0 });
}

/** The real clock, except that every wait ends at once: the SDK's back-off takes no time in a test. */
const instant: Clock = { ...systemClock, setTimeout: (callback) => systemClock.setTimeout(callback, 0) };

/**
 * A client as production runs it, retries and recovery on (the SDK's defaults), its back-off
 * waits ended at once: for tests of what the application does when an answer is lost. It has no
 * time-out, which would run on the same clock and end at once too.
 */
export function recoveringClient(token: string): LogbookClient {
  return new LogbookClient({ baseUrl: BASE_URL, token, rateLimit: false, clock: instant, timeout: Infinity });
}
