import { ApiError, createSandboxCore, PAYLOAD_TOO_LARGE_MESSAGE, type SandboxCore, type SandboxRequest, type SandboxResponse } from '@boundbook/sandbox-core';
import { http, type HttpHandler, type HttpResponse } from 'msw';
import { createCapturingSender } from './create-capturing-sender';
import { createContractHttp } from './create-contract-http';
import { MockBoundBookError } from './mock-boundbook-error';
import type { CapturedDelivery, MockBoundBook, MockBoundBookOptions, MockClockState } from './mock-boundbook-types';
import { readMockOptions } from './read-mock-options';
import { toHttpResponse } from './to-http-response';
import { toSandboxRequest } from './to-sandbox-request';

/**
 * Makes a mock of the service for MSW: handlers that answer every request to `baseUrl` and to the
 * control API (`/_sandbox`) with the sandbox core's behaviour, contract errors, rate limit and
 * per-account clock included, and captured webhook deliveries. Deliveries that are due are
 * attempted before each answer, so a test sees them as soon as its request resolves; retries fall
 * due on the account's clock (`clock.advance`).
 *
 * @example
 * ```ts
 * const mock = createMockBoundBook({ baseUrl: 'https://api.boundbook.test/rest/v1' });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * const { token } = mock.createAccount();
 * const response = await fetch('https://api.boundbook.test/rest/v1/books', {
 *   headers: { authorization: `Bearer ${token}` },
 * });
 * response.status; // 200
 * ```
 */
export function createMockBoundBook(options: MockBoundBookOptions): MockBoundBook {
  const { apiUrl, origin, deliverWebhooks, rateLimit, now } = readMockOptions(options);
  const captured: CapturedDelivery[] = [];
  const makeCore = (): SandboxCore =>
    createSandboxCore({
      sendDelivery: createCapturingSender(captured, deliverWebhooks),
      ...(rateLimit === undefined ? {} : { rateLimit }),
      ...(now === undefined ? {} : { now }),
    });
  let core = makeCore();

  async function answer(request: SandboxRequest): Promise<SandboxResponse> {
    const current = core;
    const response = await current.handle(request);
    // The attempts the request made due, made before answering so that tests need not wait.
    await Promise.all(current.deliveries.startDue(Number.MAX_SAFE_INTEGER));
    return response;
  }

  const resolver = async ({ request }: { request: Request }): Promise<HttpResponse<string>> => {
    const sandboxRequest = await toSandboxRequest(request);
    if (sandboxRequest === 'too-large') {
      return toHttpResponse({ status: 413, headers: {}, body: { message: PAYLOAD_TOO_LARGE_MESSAGE } });
    }
    return toHttpResponse(await answer(sandboxRequest), sandboxRequest.method);
  };

  async function control(token: string, method: string, path: string, body?: unknown): Promise<MockClockState> {
    const response = await answer({
      method,
      path,
      query: '',
      headers: {
        authorization: `Bearer ${token}`,
        host: new URL(origin).host,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status !== 200) throw refusal(`${method} ${path}`, response.status, response.body);
    return (response.body as { data: MockClockState }).data;
  }

  // The base URL itself names no operation, but it is the service's: the core answers it with a 404.
  const handlers: HttpHandler[] = [
    http.all(apiUrl, resolver),
    http.all(`${apiUrl}/*`, resolver),
    http.all(`${origin}/_sandbox/*`, resolver),
  ];

  return {
    handlers,
    http: createContractHttp(apiUrl),
    createAccount(input) {
      try {
        return core.createAccount(input);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        throw refusal('createAccount()', error.status, error.body);
      }
    },
    clock: {
      now: (token) => control(token, 'GET', '/_sandbox/clock'),
      advance: (token, seconds) => control(token, 'POST', '/_sandbox/clock/advance', { seconds }),
    },
    deliveries: captured,
    reset(): void {
      core.deliveries.close();
      core = makeCore();
      captured.length = 0;
    },
  };
}

/** The error of a control call the core refused, with its status and the contract's body. */
function refusal(call: string, status: number, body: unknown): MockBoundBookError {
  return new MockBoundBookError(status, body, `[@boundbook/msw] ${call} answered ${status}: ${JSON.stringify(body)}`);
}
