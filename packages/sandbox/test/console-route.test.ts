import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from '@hapi/hapi';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSOLE_CONTENT_SECURITY_POLICY,
  type ConsoleSource,
  type EmbeddedConsole,
  locateConsole,
} from '../src/console-route';
import { MemoryStorage } from '../src/persistence/memory-storage';
import { CorePersister } from '../src/persistence/persister';
import { createSandboxServer } from '../src/server';

// The console's files as the server answers them, from a folder laid out as console/build.mjs
// lays out dist/console/ (the end-to-end tests in test/console/ serve the real build).

const PAGE = '<!doctype html><title>FFLKit sandbox</title><script type="module" src="/assets/main-ABC123.js"></script>';
const SCRIPT = 'console.log("console");';
const STYLE = 'body{margin:0}';

let folder: string;
let server: Server;

/** A core that answers nothing: the console's routes never reach it. */
const core = {
  version: 0,
  respond: () => Promise.reject(new Error('the console routes must not reach the core')),
  watch: () => undefined,
  snapshot: () => ({ format: 2 }),
  takeChanges: () => {
    throw new TypeError('no changes');
  },
  confirmChanges() {},
  revertChanges() {},
};

function serve(consoleFiles: ConsoleSource | undefined): Server {
  server = createSandboxServer({ core, persister: new CorePersister(core, new MemoryStorage()), consoleFiles });
  return server;
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fflkit-console-'));
  await mkdir(join(folder, 'assets'));
  await writeFile(join(folder, 'index.html'), PAGE);
  await writeFile(join(folder, 'assets', 'main-ABC123.js'), SCRIPT);
  await writeFile(join(folder, 'assets', 'main-DEF456.css'), STYLE);
});
afterAll(() => rm(folder, { recursive: true, force: true }));
afterEach(() => server?.stop());

describe('GET / serves the console page', () => {
  it('answers the page as HTML under the console CSP, to be checked again on every load', async () => {
    const response = await serve(folder).inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.payload).toBe(PAGE);
    expect(response.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'content-security-policy': CONSOLE_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    expect(response.headers['etag']).toMatch(/^"[\w-]{22}"$/);
  });

  it('answers 304 without a body to a request that holds the page already', async () => {
    const first = await serve(folder).inject({ method: 'GET', url: '/' });
    const again = await server.inject({
      method: 'GET',
      url: '/',
      headers: { 'if-none-match': String(first.headers['etag']) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.payload).toBe('');
  });

  it('keeps scripts, styles and calls to its own origin, with no inline code, frames or form posts', () => {
    expect(CONSOLE_CONTENT_SECURITY_POLICY).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const response = await serve(folder).inject({ method: 'HEAD', url: '/' });
    expect([response.statusCode, response.payload, response.headers['content-type']]).toEqual([
      200,
      '',
      'text/html; charset=utf-8',
    ]);
  });

  it('refuses a foreign Host, as every other path (DNS rebinding)', async () => {
    const response = await serve(folder).inject({
      method: 'GET',
      url: '/',
      headers: { host: 'attacker.example:4010' },
    });
    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.payload).message).toContain('does not answer to the host name attacker.example');
  });
});

describe('GET /assets/{file} serves the hashed assets', () => {
  it.each([
    ['main-ABC123.js', SCRIPT, 'text/javascript; charset=utf-8'],
    ['main-DEF456.css', STYLE, 'text/css; charset=utf-8'],
  ])('answers %s with its type, cached for a year as immutable', async (name, body, type) => {
    const response = await serve(folder).inject({ method: 'GET', url: `/assets/${name}` });
    expect(response.statusCode).toBe(200);
    expect(response.payload).toBe(body);
    expect(response.headers).toMatchObject({
      'content-type': type,
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    });
  });

  it.each(['main-OLD000.js', '..%2Findex.html', 'index.html'])(
    'answers %s, which the build did not make, with 404',
    async (name) => {
      const response = await serve(folder).inject({ method: 'GET', url: `/assets/${name}` });
      expect(response.statusCode).toBe(404);
      expect(JSON.parse(response.payload)).toEqual({
        message:
          'The console has no such asset: reload the page, as a newer build of the console names its assets anew.',
      });
    },
  );
});

describe('a sandbox without a built console', () => {
  it.each([undefined, join(tmpdir(), 'fflkit-no-console')])(
    'answers / and its assets from %s with 404 saying how to build it',
    async (consoleDir) => {
      for (const url of ['/', '/assets/main-ABC123.js']) {
        const response = await serve(consoleDir).inject({ method: 'GET', url });
        expect(response.statusCode).toBe(404);
        expect(JSON.parse(response.payload)).toEqual({
          message:
            'The console is not built: run pnpm --filter @fflkit/sandbox build (the package as published includes it).',
        });
      }
    },
  );
});

/** The console as the single executable embeds it: assets `console/<path>` and `console/files.json`. */
function embedded(files: Record<string, string>): EmbeddedConsole & { readonly keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    getAsset(key) {
      keys.push(key);
      const text = files[key];
      if (text === undefined) throw new Error(`no asset ${key}`);
      return new TextEncoder().encode(text).buffer as ArrayBuffer;
    },
  };
}

const EMBEDDED_FILES = {
  'console/files.json': JSON.stringify(['index.html', 'assets/main-ABC123.js', 'assets/main-DEF456.css']),
  'console/index.html': PAGE,
  'console/assets/main-ABC123.js': SCRIPT,
  'console/assets/main-DEF456.css': STYLE,
};

describe('the console embedded in the single executable', () => {
  it('answers the page and each asset from the embedded files, with the headers of the folder', async () => {
    const source = embedded(EMBEDDED_FILES);
    const page = await serve(source).inject({ method: 'GET', url: '/' });
    const script = await server.inject({ method: 'GET', url: '/assets/main-ABC123.js' });
    const style = await server.inject({ method: 'GET', url: '/assets/main-DEF456.css' });
    expect([page.statusCode, page.payload, page.headers['content-security-policy']]).toEqual([
      200,
      PAGE,
      CONSOLE_CONTENT_SECURITY_POLICY,
    ]);
    expect([script.payload, script.headers['content-type'], style.payload]).toEqual([
      SCRIPT,
      'text/javascript; charset=utf-8',
      STYLE,
    ]);
    // Read once, at the first request, like the folder.
    expect(source.keys.filter((key) => key === 'console/index.html')).toHaveLength(1);
  });

  it('answers 404 saying how to build it when the executable lacks the list or a file it lists', async () => {
    const { 'console/files.json': _list, ...unlisted } = EMBEDDED_FILES;
    const { 'console/assets/main-DEF456.css': _style, ...short } = EMBEDDED_FILES;
    for (const files of [unlisted, short]) {
      const response = await serve(embedded(files)).inject({ method: 'GET', url: '/' });
      expect(response.statusCode).toBe(404);
      expect(JSON.parse(response.payload).message).toContain('The console is not built');
    }
  });
});

describe('locateConsole(sea)', () => {
  it('takes the embedded files in a single executable, never a folder beside it', () => {
    const files = embedded(EMBEDDED_FILES);
    const source = locateConsole({ isSea: () => true, getAsset: files.getAsset });
    expect(typeof source).toBe('object');
    expect(Buffer.from((source as EmbeddedConsole).getAsset('console/index.html')).toString()).toBe(PAGE);
  });

  it.each([
    ['a Node without node:sea', undefined],
    ['a Node that runs no single executable', { isSea: () => false, getAsset: embedded(EMBEDDED_FILES).getAsset }],
  ])('takes the built folder beside the code in %s', (_name, sea) => {
    // The tests run from the sources: the package's dist/console/ once it is built, else none.
    const built = fileURLToPath(new URL('../dist/console/', import.meta.url));
    expect(locateConsole(sea)).toBe(existsSync(join(built, 'index.html')) ? built : undefined);
  });
});
