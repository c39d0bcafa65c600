import { LogbookClient, type LogbookClientOptions } from '@fflkit/sdk';
import { FakeClock } from './fake-clock';
import { stubFetch, type Answer } from './stub-fetch';

export const BASE_URL = 'https://logbook.example.test/rest/v1';

let tokens = 0;

/**
 * A client over a {@link stubFetch} on a {@link FakeClock}, with a token of its own (so no two
 * tests share a rate limiter), jitter off unless `options.random` says otherwise, and no warning
 * on the console about waits unless `options.onWait` is given (as `undefined` for the default).
 */
export function testClient(answers: Answer[], options: LogbookClientOptions = {}) {
  const clock = options.clock instanceof FakeClock ? options.clock : new FakeClock();
  const stub = stubFetch(...answers);
  const token = options.token ?? `test-token-${++tokens}`;
  const logbook = new LogbookClient({
    baseUrl: BASE_URL,
    fetch: stub.fetch,
    random: () => 0,
    onWait: () => undefined,
    ...options,
    token,
    clock,
  });
  return { logbook, clock, calls: stub.calls, token };
}
