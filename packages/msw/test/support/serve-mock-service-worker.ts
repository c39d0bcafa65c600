import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vitest/config';

/** Where `setupWorker` registers its worker by default; a worker's scope cannot exceed its folder. */
const WORKER_PATH = '/mockServiceWorker.js';

/**
 * A Vite plugin that serves MSW's worker script at `/mockServiceWorker.js`, read from the msw
 * this package installs. Serving it from there, instead of a copy committed by `msw init`, keeps
 * the script's version equal to the library's, which `setupWorker` checks on start; nothing is
 * written to disk, and nothing depends on Vitest serving the script itself.
 *
 * @example
 * ```ts
 * defineProject({ plugins: [serveMockServiceWorker()], test: { browser: { enabled: true } } });
 * ```
 */
export function serveMockServiceWorker(): Plugin {
  const script = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8');
  return {
    name: 'fflkit:serve-mock-service-worker',
    configureServer(server) {
      // Registered here, not in a returned hook, so that it answers before Vite's own middlewares.
      server.middlewares.use((request, response, next) => {
        if (request.url?.split('?')[0] !== WORKER_PATH) {
          next();
          return;
        }
        response.setHeader('content-type', 'text/javascript; charset=utf-8');
        response.setHeader('cache-control', 'no-store');
        response.end(script);
      });
    },
  };
}
