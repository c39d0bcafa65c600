import { readFileSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as nodeBuild from '../src/index';
import * as webBuild from '../src/web';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** The modules both builds reach: everything but the entries and the Web Crypto HMAC. */
const SHARED = [
  'adapters.ts',
  'answers.ts',
  'body.ts',
  'dedup.ts',
  'errors.ts',
  'events.ts',
  'handler.ts',
  'options.ts',
  'shared-exports.ts',
  'signature.ts',
];

/** Paths under src/, sorted. */
function relative(files: ReadonlySet<string>): string[] {
  return [...files].map((file) => file.slice(SRC.length)).sort();
}

/** Every module the entry reaches through its static imports, with the bare specifiers it names. */
function reachable(entry: string): { files: Set<string>; specifiers: Set<string> } {
  const files = new Set<string>();
  const specifiers = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)';/gms)) {
      if (specifier?.startsWith('.')) visit(`${resolve(dirname(file), specifier)}.ts`);
      else specifiers.add(specifier as string);
    }
  };
  visit(resolve(SRC, entry));
  return { files, specifiers };
}

const PACKAGE = fileURLToPath(new URL('../', import.meta.url));
const readJson = (path: string) => JSON.parse(readFileSync(`${PACKAGE}${path}`, 'utf8'));

describe("the package's entry points", () => {
  const manifest = readJson('package.json');
  // Each entry names its sources first, under the condition the workspace's tests and type checks set.
  const SOURCE = '@fflkit/source';
  const webSources = {
    [SOURCE]: './src/web.ts',
    import: { types: './dist/web.d.ts', default: './dist/web.js' },
    require: { types: './dist/web.d.cts', default: './dist/web.cjs' },
  };

  it('gives the web build to the browser, worker, edge-light and deno conditions and by default, the Node build to node', () => {
    const root = manifest.exports['.'];
    expect(Object.keys(root)).toEqual(['browser', 'worker', 'edge-light', 'deno', 'node', SOURCE, 'import', 'require']);
    for (const condition of ['browser', 'worker', 'edge-light', 'deno']) expect(root[condition]).toEqual(webSources);
    expect({ [SOURCE]: root[SOURCE], import: root.import, require: root.require }).toEqual(webSources);
    expect(root.node).toEqual({
      [SOURCE]: './src/index.ts',
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    });
  });

  it('serves the web build at @fflkit/webhooks/web under every condition, for runtimes that set none of them (Bun)', () => {
    expect(Object.keys(manifest.exports)).toEqual(['.', './web', './package.json']);
    expect(manifest.exports['./web']).toEqual(webSources);
  });

  it('serves @fflkit/webhooks/web to resolvers that read no exports map, through web/package.json', () => {
    expect(manifest.files).toEqual(['dist', 'src', 'web', 'CHANGELOG.md']);
    expect(readJson('web/package.json')).toEqual({
      main: '../dist/web.cjs',
      module: '../dist/web.js',
      types: '../dist/web.d.cts',
    });
  });
});

describe('the two builds', () => {
  it('export the same names', () => {
    expect(Object.keys(webBuild).sort()).toEqual(Object.keys(nodeBuild).sort());
    expect(Object.keys(nodeBuild).sort()).toEqual([
      'DEFAULT_DELIVERY_TTL_SECONDS',
      'WebhookVerificationError',
      'constructEvent',
      'createMemoryDeliveryStore',
      'createWebhookHandler',
      'signPayload',
      'toExpressMiddleware',
      'toFastifyPlugin',
      'toNodeListener',
      'verifySignature',
    ]);
  });

  it('share every export but the four that sign or verify', () => {
    const own = Object.keys(nodeBuild).filter(
      // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the test compares every export by name
      (name) => nodeBuild[name as keyof typeof nodeBuild] !== webBuild[name as keyof typeof webBuild],
    );
    expect(own.sort()).toEqual(['constructEvent', 'createWebhookHandler', 'signPayload', 'verifySignature']);
  });

  it('the web build reaches no node: module and no module of the node build', () => {
    const web = reachable('web.ts');
    expect([...web.specifiers].sort()).toEqual(['@fflkit/types']);
    expect(relative(web.files)).toEqual([...SHARED, 'web-crypto.ts', 'web.ts'].sort());
  });

  it('the node build reaches node:crypto, and no module of the web build', () => {
    const node = reachable('index.ts');
    expect([...node.specifiers].sort()).toEqual(['@fflkit/types', 'node:buffer', 'node:crypto']);
    expect(relative(node.files)).toEqual([...SHARED, 'index.ts'].sort());
  });

  it('every source module is reached by one build or both', () => {
    const reached = new Set([...relative(reachable('web.ts').files), ...relative(reachable('index.ts').files)]);
    expect(readdirSync(SRC).sort()).toEqual([...reached].sort());
  });
});
