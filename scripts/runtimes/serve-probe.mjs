// Serves probe-worker.mjs on a free port of 127.0.0.1 in Deno or Bun, and prints {"port": N} as
// its first line of output for check-runtimes.mjs.
import probe from './probe-worker.mjs';

const announce = (port) => console.log(JSON.stringify({ port }));

if (globalThis.Deno !== undefined) {
  Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => announce(port) }, probe.fetch);
} else if (globalThis.Bun !== undefined) {
  announce(Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: probe.fetch }).port);
} else {
  throw new Error('serve-probe.mjs runs in Deno or Bun; workerd runs probe-worker.mjs under miniflare.');
}
