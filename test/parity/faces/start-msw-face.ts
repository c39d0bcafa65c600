import { createMockLogbook } from '@fflkit/msw';
import type { Face, FaceOptions } from './face';
import { setupServer } from 'msw/node';

/** Where the MSW face answers: a name that no network could resolve, so nothing leaks out. */
const BASE_URL = 'https://logbook.example.test/rest/v1';

/**
 * The MSW face: `createMockLogbook()` under msw/node's `setupServer`, answering in process at
 * `https://logbook.example.test`, with the fixtures file given read by the mock itself. Its webhook deliveries are really sent (`deliverWebhooks`), so
 * that they reach the same kind of receiver as the sandbox's; that is the one request let
 * through to the loopback network, every other unhandled request is an error.
 *
 * @example
 * ```ts
 * const face = await startMswFace({});
 * const { token } = await face.createAccount();
 * await face.stop();
 * ```
 */
export async function startMswFace(options: FaceOptions): Promise<Face> {
  const mock = createMockLogbook({
    baseUrl: BASE_URL,
    deliverWebhooks: true,
    rateLimit: options.rateLimit,
    fixtures: options.fixtures,
  });
  const server = setupServer(...mock.handlers);
  server.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== '127.0.0.1') print.error();
    },
  });
  const origin = new URL(BASE_URL).origin;
  return {
    name: 'msw',
    origin,
    apiUrl: BASE_URL,
    createAccount: async (input) => mock.createAccount(input),
    stop: async () => {
      server.close();
      mock.reset();
    },
  };
}
