import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/start-sandbox';

const HEALTH_CHECK = fileURLToPath(new URL('../../container/health-check.mjs', import.meta.url));

let sandbox: RunningSandbox | undefined;
let server: Server | undefined;

afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
  server = undefined;
});

/** Runs the image's health check with `env`, as its HEALTHCHECK does; resolves with its exit code and output. */
function healthCheck(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [HEALTH_CHECK], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });
}

/** A server of another kind on a free port, answering every request with `status`. */
async function answering(status: number): Promise<number> {
  server = createServer((_request, response) => response.writeHead(status).end('{"message":"not ready"}'));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('the container image’s health check (container/health-check.mjs)', () => {
  it('exits 0 once the sandbox answers GET /_sandbox/health, asking the loopback for "every interface"', async () => {
    sandbox = await startSandbox({ host: '0.0.0.0' });
    const port = new URL(sandbox.url).port;
    const outcome = await healthCheck({ FFLKIT_SANDBOX_HOST: '0.0.0.0', FFLKIT_SANDBOX_PORT: port });
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toMatchObject({ data: { status: 'ok' } });
  });

  it('exits 1 naming the URL and the cause when nothing listens', async () => {
    const port = String(await answering(200));
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const outcome = await healthCheck({ FFLKIT_SANDBOX_HOST: '0.0.0.0', FFLKIT_SANDBOX_PORT: port });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`GET http://127.0.0.1:${port}/_sandbox/health failed: ECONNREFUSED`);
  });

  it('exits 1 with the status and body of an answer other than 200', async () => {
    const port = String(await answering(503));
    const outcome = await healthCheck({ FFLKIT_SANDBOX_HOST: '127.0.0.1', FFLKIT_SANDBOX_PORT: port });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('failed: 503 {"message":"not ready"}');
  });
});
