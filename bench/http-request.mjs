// One HTTP request on the loopback interface with node:http, bounded in time. Used for polling,
// set-up and checks; the measurements themselves go through load.mjs.
import http from 'node:http';

const keepAliveAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** Resolves with `{ status, headers, body }`, `body` a Buffer; `agent` replaces the shared keep-alive agent. */
export function request(
  url,
  { method = 'GET', headers = {}, body, keepAlive = true, timeoutMs = 10_000, agent = keepAliveAgent } = {},
) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = http.request(url, {
      method,
      agent: keepAlive ? agent : false,
      headers: {
        ...(payload === undefined
          ? {}
          : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        ...headers,
      },
      timeout: timeoutMs,
    });
    req.once('timeout', () =>
      req.destroy(Object.assign(new Error(`${method} ${url} timed out after ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
    );
    req.once('error', reject);
    req.once('response', (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.end(payload);
  });
}

/** Like {@link request}, but fails unless the status is `expected`; resolves with the parsed JSON body. */
export async function requestJson(url, options, expected = 200) {
  const response = await request(url, options);
  if (response.status !== expected) {
    const method = options?.method ?? 'GET';
    throw new Error(
      `${method} ${url} answered ${response.status}, expected ${expected}: ${response.body.toString('utf8').slice(0, 500)}`,
    );
  }
  return JSON.parse(response.body.toString('utf8'));
}
