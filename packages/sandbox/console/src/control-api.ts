// The console's calls to the sandbox: the control API (/_sandbox) with the signed-in token in
// the Authorization header, at the page's own origin. Control calls are neither counted by the
// rate limit nor written to the request log, so the console spends none of the token's 60
// requests a minute and leaves the Requests page to the integrator's own calls.

/** A call that the sandbox did not answer with success: its status and message, and the fields at fault of a 422. */
export class ConsoleApiError extends Error {
  override readonly name = 'ConsoleApiError';
  readonly status: number;
  readonly errors: Readonly<Record<string, readonly string[]>>;

  constructor(status: number, message: string, errors: Readonly<Record<string, readonly string[]>> = {}) {
    super(message);
    this.status = status;
    this.errors = errors;
  }
}

/** Calls of the control API made with one token. */
export class ControlApi {
  readonly #token: string;
  readonly #onUnauthenticated: () => void;

  /** `onUnauthenticated` runs when a call is answered 401: the token is unknown or was revoked. */
  constructor(token: string, onUnauthenticated: () => void) {
    this.#token = token;
    this.#onUnauthenticated = onUnauthenticated;
  }

  /** The bearer token's header, for a call made outside this class (the event stream). */
  get authorization(): string {
    return `Bearer ${this.#token}`;
  }

  /** `GET path` answered with JSON. */
  get<T>(path: string): Promise<T> {
    return this.#json<T>('GET', path);
  }

  /** `POST path` with a JSON body (none when `body` is undefined), answered with JSON. */
  post<T>(path: string, body?: unknown): Promise<T> {
    return this.#json<T>('POST', path, body);
  }

  /** `DELETE path`, answered 204. */
  async delete(path: string): Promise<void> {
    await this.#json<unknown>('DELETE', path);
  }

  /** `GET path` answered with anything: the response, once its status is a success. */
  async download(path: string): Promise<Response> {
    const response = await this.#send('GET', path);
    if (!response.ok) throw await this.#failure(response);
    return response;
  }

  async #json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.#send(method, path, body);
    if (!response.ok) throw await this.#failure(response);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  async #send(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { authorization: this.authorization, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await fetch(path, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        cache: 'no-store',
      });
    } catch {
      throw new ConsoleApiError(0, 'The sandbox did not answer: check that it is still running, then try again.');
    }
  }

  async #failure(response: Response): Promise<ConsoleApiError> {
    if (response.status === 401) this.#onUnauthenticated();
    const body = (await response.json().catch(() => ({}))) as { message?: unknown; errors?: Record<string, string[]> };
    const message = typeof body.message === 'string' ? body.message : `The sandbox answered ${response.status}.`;
    return new ConsoleApiError(response.status, message, body.errors ?? {});
  }
}

/**
 * Makes an account without a token (`POST /_sandbox/accounts`): a dealer with the book Main,
 * and its first token, which holds every permission.
 */
export async function makeAccount(): Promise<string> {
  const response = await fetch('/_sandbox/accounts', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const body = (await response.json().catch(() => ({}))) as { token?: string; message?: string };
  if (response.status !== 201 || typeof body.token !== 'string') {
    throw new ConsoleApiError(response.status, body.message ?? `The sandbox answered ${response.status}.`);
  }
  return body.token;
}
