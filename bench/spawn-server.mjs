// Starts a server as a child process, watches its output, polls it until it answers, reads its
// peak memory and stops it. Every wait here is bounded in time.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from './http-request.mjs';

const running = new Set();

// A benchmark that throws or is interrupted must not leave servers behind (run.mjs turns
// SIGINT and SIGTERM into an exit, so this runs then too).
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Asks the kernel for a free TCP port on the loopback interface. */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Spawns `node <args>`, or `command <args>` (never through a shell, so the child's pid is the
 * server's own) and returns a handle to it.
 */
export function spawnServer(label, args, { env = {}, cwd, command = process.execPath } = {}) {
  const startedAt = performance.now();
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);

  let output = '';
  const onOutput = (chunk) => {
    // Only the start of the output is kept: banners and tokens are printed there.
    if (output.length < 256 * 1024) output += chunk;
  };
  child.stdout.setEncoding('utf8').on('data', onOutput);
  child.stderr.setEncoding('utf8').on('data', onOutput);

  let exit = null;
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      exit = { code, signal };
      resolve(exit);
    });
    child.once('error', (error) => {
      running.delete(child);
      exit = { code: null, signal: null, error };
      resolve(exit);
    });
  });

  const handle = {
    label,
    args,
    pid: child.pid,
    startedAt,
    get output() {
      return output;
    },
    get exit() {
      return exit;
    },

    /** Fails with the server's output when it has exited, so a crash reads as a crash. */
    assertRunning() {
      if (exit) {
        const how = exit.error ? exit.error.message : `code ${exit.code}, signal ${exit.signal}`;
        throw new Error(`${label} exited (${how}). Its output:\n${indent(output)}`);
      }
    },

    /** Resolves with the first match of `pattern` in the server's output. */
    async waitForOutput(pattern, timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const match = output.match(pattern);
        if (match) return match;
        handle.assertRunning();
        if (performance.now() > deadline) {
          throw new Error(
            `${label} printed nothing matching ${pattern} within ${timeoutMs} ms. Its output:\n${indent(output)}`,
          );
        }
        await sleep(2);
      }
    },

    /**
     * Polls `url` on fresh connections until `accept(status)` holds; resolves with the time from
     * spawn to that answer in milliseconds.
     */
    async pollUntil(url, { headers = {}, accept = (status) => status === 200, timeoutMs = 60_000 } = {}) {
      const deadline = performance.now() + timeoutMs;
      let last = 'no answer';
      for (;;) {
        handle.assertRunning();
        try {
          const response = await request(url, { headers, keepAlive: false, timeoutMs: 5_000 });
          if (accept(response.status)) return performance.now() - startedAt;
          last = `status ${response.status}: ${response.body.toString('utf8').slice(0, 200)}`;
        } catch (error) {
          last = error.code ?? error.message;
        }
        if (performance.now() > deadline) {
          throw new Error(`${label} did not answer GET ${url} as expected within ${timeoutMs} ms (last: ${last})`);
        }
        await sleep(5);
      }
    },

    /**
     * CPU time of the server process so far, every thread's, in milliseconds: utime and stime of
     * /proc/PID/stat, counted in the kernel's USER_HZ ticks (100 a second on Linux).
     */
    cpuMs() {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },

    /** Peak resident set size of the server process so far (VmHWM), in bytes. */
    peakRssBytes() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(status.match(/^VmHWM:\s+(\d+) kB/m)?.[1]);
      return Number.isFinite(kb) ? kb * 1024 : null;
    },

    /** Resident set size of the server process now (VmRSS), in bytes. */
    rssBytes() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(status.match(/^VmRSS:\s+(\d+) kB/m)?.[1]);
      return Number.isFinite(kb) ? kb * 1024 : null;
    },

    /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
    async stop(graceMs = 5_000) {
      if (exit) return exit;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
  return handle;
}

function indent(text) {
  const trimmed = text.trim();
  if (!trimmed) return '    (nothing)';
  return trimmed.slice(-2_000).replace(/^/gm, '    ');
}
