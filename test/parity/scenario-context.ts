import type { SandboxAccountCreate } from '@fflkit/types';
import { ApiError, LogbookClient, ConnectionError } from '@fflkit/sdk';
import { verifySignature } from '@fflkit/webhooks';
import type { Face } from './faces/face';
import type { ReceivedWebhook, WebhookReceiver } from './faces/start-webhook-receiver';
import type { Transcript } from './transcript/transcript';

/** A request the SDK cannot make: no token, or a body that is not JSON. */
export interface RawRequest {
  readonly token?: string;
  readonly rawBody?: string;
}

/**
 * What a scenario works with on one face: accounts, SDK clients that record every exchange,
 * the control API, and a webhook receiver. Every method records what it saw in the transcript.
 *
 * @example
 * ```ts
 * const token = await context.account();
 * const logbook = context.client(token);
 * const receipt = await context.call('create', () => logbook.receipts.create(receiptBody()));
 * ```
 */
export class ScenarioContext {
  readonly face: Face;
  readonly #receiver: WebhookReceiver;
  readonly #transcript: Transcript;

  constructor(face: Face, receiver: WebhookReceiver, transcript: Transcript) {
    this.face = face;
    this.#receiver = receiver;
    this.#transcript = transcript;
  }

  /** Makes an account on the face, records it, and answers its token. */
  async account(input?: SandboxAccountCreate): Promise<string> {
    const created = await this.face.createAccount(input);
    this.#transcript.record({ note: 'account', value: created });
    return created.token;
  }

  /**
   * An SDK client of the face for `token` that records every exchange. Retries, recovery and the
   * client-side limiter are off, so that each call is one request and every answer, 429 included,
   * shows.
   */
  client(token: string): LogbookClient {
    return new LogbookClient({
      baseUrl: this.face.apiUrl,
      token,
      fetch: this.#transcript.recordingFetch(),
      maxRetries: 0,
      rateLimit: false,
      recover: false,
    });
  }

  /** Runs an SDK call that must succeed: records its result, or records and rethrows its error. */
  async call<T>(label: string, action: () => Promise<T>): Promise<T> {
    try {
      const value = await action();
      this.#transcript.record({ step: label, returned: value });
      return value;
    } catch (error) {
      this.#transcript.record({ step: label, threw: describeError(error) });
      throw new Error(`${this.face.name}: ${label} failed`, { cause: error });
    }
  }

  /** Runs an SDK call that may fail: records its result or its error, and never throws. */
  async attempt(label: string, action: () => Promise<unknown>): Promise<void> {
    try {
      this.#transcript.record({ step: label, returned: await action() });
    } catch (error) {
      this.#transcript.record({ step: label, threw: describeError(error) });
    }
  }

  /**
   * Calls the control API (`path` from the origin, such as `/_sandbox/clock`) and answers the body;
   * `view` picks what of the answer's body the transcript keeps. Without a token, sends none.
   */
  async control<T = unknown>(
    token: string | undefined,
    method: string,
    path: string,
    body?: unknown,
    view?: (body: unknown) => unknown,
  ): Promise<T> {
    const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    const response = await this.#transcript.recordingFetch(view)(`${this.face.origin}${path}`, init);
    const text = await response.text();
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  /**
   * Moves the account's clock by one second. The answer waits for every delivery attempt that
   * is due or in flight, so afterwards both faces have made the same attempts.
   */
  async settle(token: string): Promise<void> {
    await this.control(token, 'POST', '/_sandbox/clock/advance', { seconds: 1 });
  }

  /** Sends a request the SDK cannot make to the service API (`path` after `/rest/v1`). */
  async send(method: string, path: string, request: RawRequest = {}): Promise<void> {
    const headers: Record<string, string> = {};
    if (request.token !== undefined) headers['authorization'] = `Bearer ${request.token}`;
    if (request.rawBody !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = { method, headers, ...(request.rawBody === undefined ? {} : { body: request.rawBody }) };
    await this.#transcript.recordingFetch()(`${this.face.apiUrl}${path}`, init);
  }

  /** The URL of the receiver's `path`: `/ok` answers 204, `/fail` 500, `/redirect` 302. */
  hookUrl(path: '/ok' | '/fail' | '/redirect'): string {
    return `${this.#receiver.origin}${path}`;
  }

  /**
   * Records the webhook requests received so far, each with its signature checked against the
   * secret of the endpoint at its path, in an order that does not depend on timing.
   */
  async noteReceived(secrets: Readonly<Record<string, string>>): Promise<void> {
    const value = await Promise.all(
      [...this.#receiver.received]
        .sort((a, b) => orderKey(a).localeCompare(orderKey(b)))
        .map(async (request) => ({
          path: request.path,
          content_type: request.headers['content-type'],
          user_agent: request.headers['user-agent'],
          event: request.headers['x-svc-event'],
          delivery: request.headers['x-svc-delivery'],
          signature_valid: await signatureValid(secrets[request.path], request),
          body: JSON.parse(request.body) as unknown,
        })),
    );
    this.#transcript.record({ note: 'received webhooks', value });
  }

  /** Records a value the scenario derived. */
  note(label: string, value: unknown): void {
    this.#transcript.record({ note: label, value });
  }
}

/** Whether the request's `X-SVC-Signature` verifies with `secret`; `null` without a secret. */
async function signatureValid(secret: string | undefined, request: ReceivedWebhook): Promise<boolean | null> {
  const signature = request.headers['x-svc-signature'];
  return secret === undefined
    ? null
    : verifySignature(secret, request.body, typeof signature === 'string' ? signature : null);
}

function describeError(error: unknown): unknown {
  if (error instanceof ApiError) return { name: error.name, status: error.status, body: error.body };
  // No answer came: the message quotes the runtime's own words (undici's, MSW's), which differ.
  if (error instanceof ConnectionError) return { name: error.name };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { thrown: String(error) };
}

// Within a path, by event and body without its timestamps: the same on both faces whatever order
// concurrent deliveries arrived in.
function orderKey(request: ReceivedWebhook): string {
  const body = request.body.replace(/"timestamp":"[^"]*"|"\w+_at":"[^"]*"/g, '');
  return `${request.path} ${String(request.headers['x-svc-event'])} ${body}`;
}
