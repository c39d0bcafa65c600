import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CONSOLE_NO_SUCH_ASSET,
  CONSOLE_NOT_BUILT,
  type ConsoleFile,
  type ConsoleSource,
  consoleFiles,
  consoleHeaders,
  locateConsole,
} from './console-route';
import type { DriftState } from './drift-proxy/drift-proxy';
import { answerJson } from './drift-proxy/relay';

// The drift proxy's own surface, beside the API it relays: the console (whose Drift page shows
// what the proxy found) at `/` and `/assets/...`, and `GET /_drift/violations`, what the page
// reads. The proxy's guard (start-drift-proxy.ts) lets only its own names reach it, and
// `/_drift` only its own origin, as the sandbox guards its control API: what it shows comes
// from a licensee's records.

/** The prefix of the proxy's own calls. */
export const DRIFT_PREFIX = '/_drift';

/** Answers a request of the proxy's own surface; `false` when the path is not one of it. */
export type DriftSurface = (request: IncomingMessage, response: ServerResponse, state: () => DriftState) => boolean;

/** The proxy's own surface, with the console built in `console` (by default the running code's, see {@link locateConsole}). */
export function createDriftSurface(console: ConsoleSource | undefined = locateConsole()): DriftSurface {
  const files = consoleFiles(console);
  return (request, response, state) => {
    const path = (request.url ?? '/').split('?', 1)[0]!;
    const own =
      path === '/' || path.startsWith('/assets/') || path === DRIFT_PREFIX || path.startsWith(`${DRIFT_PREFIX}/`);
    if (!own) return false;
    const method = request.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      answerJson(
        response,
        405,
        { message: `${method} ${path} is not a call of the drift proxy: its calls are GET.` },
        { Allow: 'GET, HEAD' },
      );
      return true;
    }
    if (path === `${DRIFT_PREFIX}/violations`) {
      answerJson(response, 200, { data: state() }, { 'Cache-Control': 'no-store' });
      return true;
    }
    if (path.startsWith(DRIFT_PREFIX)) {
      answerJson(response, 404, {
        message: `The drift proxy has no call ${path}: GET ${DRIFT_PREFIX}/violations is its one call.`,
      });
      return true;
    }
    void files().then(
      (built) => {
        if (built === undefined) return answerJson(response, 404, { message: CONSOLE_NOT_BUILT });
        if (path === '/') return answerFile(response, built.index, 'page');
        const asset = built.assets.get(path.slice('/assets/'.length));
        if (asset === undefined) return answerJson(response, 404, { message: CONSOLE_NO_SUCH_ASSET });
        return answerFile(response, asset, 'asset');
      },
      () => answerJson(response, 404, { message: CONSOLE_NOT_BUILT }),
    );
    return true;
  };
}

function answerFile(response: ServerResponse, file: ConsoleFile, kind: 'page' | 'asset'): void {
  response.writeHead(200, {
    ...consoleHeaders(file, kind),
    ETag: `"${file.etag}"`,
    'Content-Length': String(file.body.length),
  });
  response.end(response.req.method === 'HEAD' ? undefined : file.body);
}
