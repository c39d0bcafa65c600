import type { FetchFunction } from '@fflkit/sdk';

/** One answer of a {@link stubFetch}: a response, a thrown error, or a function of the request. */
export type Answer =
  | Response
  | Error
  | ((request: Request, signal: AbortSignal | undefined) => Response | Promise<Response>);

/** A request the stub received (rebuilt as a `Request`), with its body as text and the attempt's signal. */
export interface Call {
  request: Request;
  method: string;
  url: URL;
  body: string;
  signal: AbortSignal | undefined;
}

/**
 * An injected `fetch` that answers with the given answers in order (the last one repeats) and
 * records every request.
 */
export function stubFetch(...answers: Answer[]): { fetch: FetchFunction; calls: Call[] } {
  const calls: Call[] = [];
  const fetch: FetchFunction = async (url, init) => {
    const signal = init.signal ?? undefined;
    const request = new Request(url, { ...init, signal: null });
    calls.push({ request, method: request.method, url: new URL(request.url), body: await request.text(), signal });
    const answer = answers[Math.min(calls.length, answers.length) - 1];
    if (answer === undefined) throw new Error('stubFetch: no answer given');
    if (answer instanceof Error) throw answer;
    return typeof answer === 'function' ? answer(request, signal) : answer.clone();
  };
  return { fetch, calls };
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** An answer with no body, such as DELETE's 204. */
export function empty(status = 204, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers });
}

/** A `fetch` answer that never comes: it rejects only when the attempt's signal aborts. */
export function hang(_request: Request, signal: AbortSignal | undefined): Promise<Response> {
  return new Promise((_resolve, reject) => {
    signal?.addEventListener('abort', () => reject(signal.reason ?? new DOMException('aborted', 'AbortError')));
  });
}
