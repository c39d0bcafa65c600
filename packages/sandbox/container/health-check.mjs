// The container image's health check (its HEALTHCHECK runs `node /app/health-check.mjs`): exits
// 0 once the sandbox of this container answers GET /_sandbox/health with 200, else 1 with the
// reason on standard error. A Node script, since the image has neither a shell nor curl. It asks
// the address and port the sandbox was told (FFLKIT_SANDBOX_HOST and _PORT), the loopback for
// "every interface".
import { request } from 'node:http';

const TIMEOUT_MS = 3_000;

const port = process.env.FFLKIT_SANDBOX_PORT || '4010';
const configured = process.env.FFLKIT_SANDBOX_HOST || '127.0.0.1';
const host = configured === '0.0.0.0' || configured === '::' ? '127.0.0.1' : configured;
const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/_sandbox/health`;

const outcome = await new Promise((resolve) => {
  const sent = request(url, { timeout: TIMEOUT_MS }, (response) => {
    let body = '';
    response.setEncoding('utf8').on('data', (chunk) => (body += chunk));
    response.on('end', () => resolve({ status: response.statusCode, body }));
  });
  sent.on('timeout', () => sent.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
  sent.on('error', (error) => resolve({ error }));
  sent.end();
});

if (outcome.status === 200) {
  process.stdout.write(`${outcome.body}\n`);
} else {
  const reason = outcome.error ? (outcome.error.code ?? outcome.error.message) : `${outcome.status} ${outcome.body}`;
  process.stderr.write(`fflkit-sandbox health check: GET ${url} failed: ${reason}\n`);
  process.exitCode = 1;
}
