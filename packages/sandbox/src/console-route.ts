import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Request, ResponseObject, ResponseToolkit, ServerRoute } from '@hapi/hapi';

// The console: the service's dashboard for the sandbox, a static page and its hashed assets
// built by console/build.mjs into dist/console/, served at the sandbox's own origin so that its
// control calls pass the web guard (request-guard.ts) as same-origin requests. The files are
// read on the first request for them, not at start, so serving them costs the cold start nothing.
// The single executable (binary/build.mjs) carries the same files as assets of its own.

/**
 * The Content-Security-Policy of the console's page: its own scripts, styles and calls only, no
 * inline code, no frames, no form that posts anywhere (its forms are handled by its script; a
 * sign-in form that posted would put the token in a URL), and no `<base>` that could redirect
 * its relative URLs.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** How long a browser keeps a hashed asset: a year, the most HTTP caches honour. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Readonly<Record<string, string>> = {
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** A file of the built console, as it is answered. */
export interface ConsoleFile {
  readonly body: Buffer;
  readonly type: string;
  readonly etag: string;
}

/** The built console: its page, and its assets by file name. */
export interface ConsoleFiles {
  readonly index: ConsoleFile;
  readonly assets: ReadonlyMap<string, ConsoleFile>;
}

/** The answer to a request for the console when it is not built. */
export const CONSOLE_NOT_BUILT =
  'The console is not built: run pnpm --filter @fflkit/sandbox build (the package as published includes it).';

/** The answer to a request for an asset the build did not make. */
export const CONSOLE_NO_SUCH_ASSET =
  'The console has no such asset: reload the page, as a newer build of the console names its assets anew.';

/**
 * The console's files as the single executable embeds them (binary/build.mjs): each file of
 * dist/console/ is the asset `console/<path>`, and `console/files.json` lists the paths.
 */
export interface EmbeddedConsole {
  /** The bytes of the asset named `key`; throws when there is none. */
  readonly getAsset: (key: string) => ArrayBuffer;
}

/** Where the built console is: its folder (`dist/console/`), or the assets of the single executable. */
export type ConsoleSource = string | EmbeddedConsole;

/** What {@link locateConsole} needs of `node:sea`. */
export type SingleExecutableApi = EmbeddedConsole & { readonly isSea: () => boolean };

/**
 * The built console of the running code. In the single executable, its embedded assets: never a
 * folder, so that nothing beside the executable can stand in for them. Otherwise `dist/console/`
 * from the built package and its CLI bundle, and the same folder from the sources (`src/`),
 * which tests and the `@fflkit/source` condition run; `undefined` when the console is not built.
 * `sea` is `node:sea`, where this Node has it (20.16 and later can tell).
 */
export function locateConsole(
  sea: SingleExecutableApi | undefined = process.getBuiltinModule?.('node:sea'),
): ConsoleSource | undefined {
  if (sea?.isSea()) return { getAsset: (key) => sea.getAsset(key) };
  const candidates = [new URL('./console/', import.meta.url), new URL('../dist/console/', import.meta.url)];
  for (const candidate of candidates) {
    const folder = fileURLToPath(candidate);
    if (existsSync(join(folder, 'index.html'))) return folder;
  }
  return undefined;
}

/**
 * The console built in `source`, read on the first call and kept: `undefined` without a source
 * or before the console is built. The sandbox's routes and the drift proxy serve it alike.
 */
export function consoleFiles(source: ConsoleSource | undefined): () => Promise<ConsoleFiles | undefined> {
  let loading: Promise<ConsoleFiles | undefined> | undefined;
  return () => {
    loading ??=
      source === undefined
        ? Promise.resolve(undefined)
        : typeof source === 'string'
          ? readConsole(source)
          : Promise.resolve(readEmbeddedConsole(source));
    return loading;
  };
}

/**
 * The headers of a console file: the page is checked again on every load and held to
 * {@link CONSOLE_CONTENT_SECURITY_POLICY}; a hashed asset is kept for a year.
 */
export function consoleHeaders(file: ConsoleFile, kind: 'page' | 'asset'): Record<string, string> {
  return {
    'Content-Type': file.type,
    'Cache-Control': kind === 'page' ? 'no-cache' : IMMUTABLE,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    ...(kind === 'page' && { 'Content-Security-Policy': CONSOLE_CONTENT_SECURITY_POLICY }),
  };
}

/**
 * The routes of the console that `files` reads (see {@link consoleFiles}): `GET /` answers its
 * page, never cached without asking again (`no-cache`, with an ETag) and under
 * {@link CONSOLE_CONTENT_SECURITY_POLICY}; `GET /assets/{file}` answers a hashed asset, cached for
 * a year. Without a source, or before the console is built, both answer 404 saying how to build it.
 */
export function consoleRoutes(files: () => Promise<ConsoleFiles | undefined>): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/',
      handler: async (_request, h) => {
        const built = await files();
        if (built === undefined) return errorReply(h, 404, CONSOLE_NOT_BUILT);
        return answer(h, built.index, 'page');
      },
    },
    {
      method: 'GET',
      path: '/assets/{file}',
      handler: async (request: Request, h: ResponseToolkit) => {
        const built = await files();
        if (built === undefined) return errorReply(h, 404, CONSOLE_NOT_BUILT);
        const asset = built.assets.get(String(request.params['file']));
        if (asset === undefined) return errorReply(h, 404, CONSOLE_NO_SUCH_ASSET);
        return answer(h, asset, 'asset');
      },
    },
  ];
}

/** Reads the built console; `undefined` when its page is missing (the console is not built). */
async function readConsole(folder: string): Promise<ConsoleFiles | undefined> {
  const index = await readConsoleFile(join(folder, 'index.html')).catch(() => undefined);
  if (index === undefined) return undefined;
  const names = await readdir(join(folder, 'assets')).catch(() => [] as string[]);
  const assets = new Map<string, ConsoleFile>();
  for (const name of names) {
    if (TYPES[extname(name)] !== undefined) assets.set(name, await readConsoleFile(join(folder, 'assets', name)));
  }
  return { index, assets };
}

async function readConsoleFile(path: string): Promise<ConsoleFile> {
  return consoleFile(path, await readFile(path));
}

/**
 * Reads the embedded console; `undefined` when the executable lacks it or a file it lists
 * (`getAsset` throws), as for a folder without its page.
 */
function readEmbeddedConsole(embedded: EmbeddedConsole): ConsoleFiles | undefined {
  const read = (path: string): ConsoleFile => consoleFile(path, Buffer.from(embedded.getAsset(`console/${path}`)));
  try {
    const paths: unknown = JSON.parse(Buffer.from(embedded.getAsset('console/files.json')).toString('utf8'));
    if (!Array.isArray(paths)) return undefined;
    const assets = new Map<string, ConsoleFile>();
    for (const path of paths) {
      const name = typeof path === 'string' && path.startsWith('assets/') ? path.slice('assets/'.length) : '';
      if (TYPES[extname(name)] !== undefined) assets.set(name, read(path));
    }
    return { index: read('index.html'), assets };
  } catch {
    return undefined;
  }
}

function consoleFile(path: string, body: Buffer): ConsoleFile {
  const etag = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  return { body, etag, type: TYPES[extname(path)] ?? 'application/octet-stream' };
}

function answer(h: ResponseToolkit, file: ConsoleFile, kind: 'page' | 'asset'): ResponseObject {
  // A matching If-None-Match is answered 304 without the body.
  let response = h.entity({ etag: file.etag }) ?? h.response(file.body);
  for (const [name, value] of Object.entries(consoleHeaders(file, kind))) {
    response = name === 'Content-Type' ? response.type(value) : response.header(name, value);
  }
  return response;
}

/** An answer in the contract's error shape, `{"message": string}`; the server's answers use it too. */
export function errorReply(h: ResponseToolkit, status: number, message: string): ResponseObject {
  return h.response(JSON.stringify({ message })).type('application/json; charset=utf-8').code(status);
}
