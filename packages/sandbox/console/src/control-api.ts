import { type ControlClient, type ControlFailure, createControlClient, fetchSend } from '@fflkit/sandbox-core/control';

// The console's calls to the sandbox: the control API's typed client (`@fflkit/sandbox-core/control`)
// at the page's own origin, with the signed-in token in the Authorization header. Control calls
// are neither counted by the rate limit nor written to the request log, so the console spends
// none of the token's 60 requests a minute and leaves the Requests page to the integrator's own
// calls.

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

/**
 * The control API's calls made with `token` (none for making an account); `onUnauthenticated`
 * runs when a call is answered 401: the token is unknown or was revoked. A refused call rejects
 * with a {@link ConsoleApiError} worded for a person: the sandbox's own message when it gave one.
 */
export function controlApi(token: string | undefined, onUnauthenticated: () => void = () => undefined): ControlClient {
  const send = fetchSend('');
  return createControlClient({
    send:
      token === undefined
        ? send
        : (request) => send({ ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } }),
    fail: (failure) => consoleError(failure, onUnauthenticated),
    target: location.origin,
  });
}

function consoleError({ status, body }: ControlFailure, onUnauthenticated: () => void): ConsoleApiError {
  if (status === 0) {
    return new ConsoleApiError(0, 'The sandbox did not answer: check that it is still running, then try again.');
  }
  if (status === 401) onUnauthenticated();
  const { message, errors } = (typeof body === 'object' && body !== null ? body : {}) as {
    message?: unknown;
    errors?: Record<string, string[]>;
  };
  return new ConsoleApiError(
    status,
    typeof message === 'string' ? message : `The sandbox answered ${status}.`,
    errors ?? {},
  );
}
