// Drives HTTP load with autocannon over keep-alive connections on the loopback interface, either
// for a fixed time or for a fixed number of requests with a time limit.
import autocannon from 'autocannon';

/**
 * Runs one load and resolves with its figures:
 * `{ ok, rps, p50, p99, errors, timeouts, non2xx, statusCodes, seconds, stoppedEarly }`,
 * latencies in milliseconds. `rps` is the 2xx answers divided by the time from the start to the
 * last 2xx answer, so a server that answers in slow batches (json-server's writes) is not
 * charged for the idle end of the window.
 *
 * `makeBody(n)` gives each request its own JSON body (n = 0, 1, 2, ...); `body` sends one body
 * for every request. `makeRequest(n)` gives each request its own `{ path, headers, body }` (each
 * optional; `path` in place of the url's, `headers` added to `headers`), to spread a load over
 * many accounts or pages. With `amount`, the load stops after that many answers or at `maxSeconds`
 * (default 300), whichever comes first; otherwise it runs `seconds`.
 */
export function runLoad({
  url,
  method = 'GET',
  headers = {},
  body,
  makeBody,
  makeRequest,
  connections = 10,
  seconds = 5,
  amount,
  maxSeconds = 300,
  timeoutSeconds = 30,
  onProgress,
}) {
  const bodyHeaders =
    body !== undefined || makeBody || (makeRequest && method !== 'GET') ? { 'content-type': 'application/json' } : {};
  let next = 0;
  const options = {
    url,
    connections,
    timeout: timeoutSeconds,
    headers: { ...bodyHeaders, ...headers },
    method,
    ...(amount ? { amount } : { duration: seconds }),
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    ...(makeBody
      ? {
          requests: [
            {
              method,
              setupRequest: (request) => ({ ...request, body: JSON.stringify(makeBody(next++)) }),
            },
          ],
        }
      : {}),
    ...(makeRequest
      ? {
          requests: [
            {
              method,
              setupRequest: (request) => {
                const made = makeRequest(next++);
                return {
                  ...request,
                  ...(made.path === undefined ? {} : { path: made.path }),
                  headers: { ...request.headers, ...made.headers },
                  ...(made.body === undefined ? {} : { body: JSON.stringify(made.body) }),
                };
              },
            },
          ],
        }
      : {}),
  };

  return new Promise((resolve, reject) => {
    let stoppedEarly = false;
    let answered = 0;
    let lastOkAt = NaN;
    let limit;
    const startedAt = performance.now();
    const instance = autocannon(options, (error, result) => {
      clearTimeout(limit);
      if (error) return reject(error);
      const ok = result['2xx'];
      resolve({
        ok,
        rps: ok ? ok / ((lastOkAt - startedAt) / 1000) : 0,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors,
        timeouts: result.timeouts,
        non2xx: result.non2xx,
        statusCodes: Object.fromEntries(
          Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]),
        ),
        seconds: result.duration,
        stoppedEarly,
      });
    });
    if (amount) {
      limit = setTimeout(() => {
        stoppedEarly = true;
        instance.stop();
      }, maxSeconds * 1000);
    }
    instance.on('response', (_client, statusCode) => {
      answered++;
      if (statusCode >= 200 && statusCode < 300) lastOkAt = performance.now();
    });
    if (onProgress) {
      instance.on('tick', () => onProgress(answered));
    }
  });
}

/** Describes what went wrong in a load, or returns `''` when every request was answered 2xx. */
export function loadProblems(result) {
  const problems = [];
  if (result.errors) problems.push(`${result.errors} errors (${result.timeouts} time-outs)`);
  const bad = Object.entries(result.statusCodes).filter(([code]) => !code.startsWith('2'));
  if (bad.length) problems.push(`non-2xx: ${bad.map(([code, count]) => `${count}x ${code}`).join(', ')}`);
  return problems.join('; ');
}
