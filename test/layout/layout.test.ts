import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The import rules of ARCHITECTURE.md, checked on the sources: who may import whom between the
// packages, what the transport-free core may import, and that no two folders of a package
// import each other. Imports are read with TypeScript's scanner, so those in comments and
// JSDoc examples are not counted.

const ROOT = join(import.meta.dirname, '..', '..');

/** The workspace packages each package may import, besides itself. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  types: [],
  sdk: ['@fflkit/types'],
  webhooks: ['@fflkit/types'],
  'sandbox-core': ['@fflkit/types'],
  sandbox: ['@fflkit/types', '@fflkit/sandbox-core', '@fflkit/mcp'],
  msw: ['@fflkit/types', '@fflkit/sandbox-core'],
  // The MCP server reaches a sandbox over HTTP only: the sandbox imports it, never the reverse.
  mcp: ['@fflkit/types'],
};

/** Development dependencies a package's build bundles into its output, so its users need none. */
const BUNDLED: Record<string, readonly string[]> = {
  // ESM-only: bundled so that the CommonJS build loads on every Node 20 (tsup.config.ts).
  'sandbox-core': ['@noble/hashes'],
  // ESM-only and small: bundled for the same reason (packages/sandbox/tsup.config.ts).
  sandbox: ['lowdb'],
};

/** The files of the core that may import Node's modules: its Node-only entries, `fixtures-file` and `node-crypto`. */
const CORE_NODE_ENTRIES = ['fixtures/fixtures-file.ts', 'node-crypto.ts'];

interface SourceFile {
  /** The path inside the package's `src/`. */
  readonly path: string;
  readonly imports: readonly string[];
  /** The text of the file without its comments, for the rules that read code. */
  readonly code: string;
}

/** The sources of a package's `src/`, or of another folder of the package (the console's `console/src`). */
function sourcesOf(name: string, folder = 'src'): SourceFile[] {
  const src = join(ROOT, 'packages', name, folder);
  const files: SourceFile[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'generated') walk(path);
      } else if (/\.tsx?$/.test(entry.name)) {
        const text = readFileSync(path, 'utf8');
        const { importedFiles } = ts.preProcessFile(text, true, true);
        files.push({
          path: relative(src, path),
          imports: importedFiles.map((file) => file.fileName),
          code: withoutComments(text),
        });
      }
    }
  };
  walk(src);
  return files;
}

/** A source's text with its comments (JSDoc examples included) left out, as the scanner reads it. */
function withoutComments(text: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  let code = '';
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind !== ts.SyntaxKind.SingleLineCommentTrivia && kind !== ts.SyntaxKind.MultiLineCommentTrivia)
      code += scanner.getTokenText();
  }
  return code;
}

/** Node's own modules by their bare names (`fs`, `fs/promises`): imported so, they escape a rule on `node:`. */
const BARE_BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith('_')));

/** The imports of the files that name a Node module without its `node:` prefix. */
function bareBuiltinImports(files: readonly SourceFile[]): Array<{ path: string; imported: string }> {
  return files.flatMap(({ path, imports }) =>
    imports.filter((specifier) => BARE_BUILTINS.has(specifier)).map((imported) => ({ path, imported })),
  );
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function manifestOf(name: string): Record<string, Record<string, string> | undefined> {
  return JSON.parse(readFileSync(join(ROOT, 'packages', name, 'package.json'), 'utf8')) as Record<
    string,
    Record<string, string> | undefined
  >;
}

/** The top folder of a path inside `src/` ('.' for the files at its root). */
function folderOf(path: string): string {
  const [first, ...rest] = normalize(path).split(/[\\/]/);
  return rest.length === 0 ? '.' : first!;
}

/** Which top folders of `src/` the files of each import. */
function folderImports(files: readonly SourceFile[]): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const { path, imports } of files) {
    const from = folderOf(path);
    for (const specifier of imports.filter((imported) => imported.startsWith('.'))) {
      const to = folderOf(join(dirname(path), specifier));
      if (to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  return edges;
}

describe.each(Object.keys(MAY_IMPORT))('the sources of @fflkit/%s', (name) => {
  const files = sourcesOf(name);
  const self = `@fflkit/${name}`;

  it('import only the workspace packages ARCHITECTURE.md allows', () => {
    const workspace = files.flatMap(({ path, imports }) =>
      imports
        .filter((specifier) => specifier.startsWith('@fflkit/'))
        .map((specifier) => ({ path, imported: packageOf(specifier) })),
    );
    const refused = workspace.filter(({ imported }) => imported !== self && !MAY_IMPORT[name]!.includes(imported));
    expect(refused).toEqual([]);
  });

  it('import only packages their package.json declares (or their build bundles)', () => {
    const manifest = manifestOf(name);
    const declared = new Set([
      ...Object.keys(manifest['dependencies'] ?? {}),
      ...Object.keys(manifest['peerDependencies'] ?? {}),
      ...(BUNDLED[name] ?? []),
      self,
    ]);
    const undeclared = files.flatMap(({ path, imports }) =>
      imports
        .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
        .map(packageOf)
        .filter((imported) => !declared.has(imported))
        .map((imported) => ({ path, imported })),
    );
    expect(undeclared).toEqual([]);
  });

  it("name Node's modules with their node: prefix, so that the rules on node: imports see them all", () => {
    expect(bareBuiltinImports(files)).toEqual([]);
  });

  it('have no two folders that import each other, directly or through others', () => {
    const edges = folderImports(files);
    // A folder that reaches itself through the edges is on a cycle.
    const reaches = (from: string, target: string, seen = new Set<string>()): boolean => {
      for (const next of edges.get(from) ?? []) {
        if (next === target) return true;
        if (seen.has(next)) continue;
        seen.add(next);
        if (reaches(next, target, seen)) return true;
      }
      return false;
    };
    expect([...edges.keys()].filter((folder) => reaches(folder, folder))).toEqual([]);
  });
});

/**
 * sandbox-core's folders in ARCHITECTURE.md's order: each may import only those before it (and
 * `core.ts` and `index.ts`, at the root, any of them).
 */
const CORE_FOLDERS = ['control', 'support', 'state', 'webhooks', 'accounts', 'receipts', 'fixtures', 'routing'];
/** Folders of one rank, which ARCHITECTURE.md lists together: neither imports the other. */
const CORE_RANK: Record<string, number> = {
  control: 0,
  support: 0,
  state: 1,
  webhooks: 2,
  accounts: 3,
  receipts: 3,
  fixtures: 4,
  routing: 5,
  '.': 6,
};

describe('the sandbox core', () => {
  it('has the folders ARCHITECTURE.md lists, each importing only the folders before it', () => {
    const edges = folderImports(sourcesOf('sandbox-core'));
    const folders = new Set([...edges.keys(), ...[...edges.values()].flatMap((to) => [...to])]);
    expect([...folders].filter((folder) => folder !== '.').sort()).toEqual([...CORE_FOLDERS].sort());
    const upward = [...edges].flatMap(([from, to]) =>
      [...to].filter((target) => CORE_RANK[target]! >= CORE_RANK[from]!).map((target) => `${from} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it('imports no Node module (no transport, no storage) outside its Node-only entries', () => {
    const nodeImports = sourcesOf('sandbox-core').flatMap(({ path, imports }) =>
      imports
        .filter(
          (specifier) =>
            (specifier.startsWith('node:') || BARE_BUILTINS.has(specifier)) && !CORE_NODE_ENTRIES.includes(path),
        )
        .map((imported) => ({ path, imported })),
    );
    expect(nodeImports).toEqual([]);
    // The exceptions are real: were an entry moved, this rule would silently cover nothing.
    const sources = sourcesOf('sandbox-core');
    expect(sources.find(({ path }) => path === CORE_NODE_ENTRIES[0])?.imports).toContain('node:fs');
    expect(sources.find(({ path }) => path === CORE_NODE_ENTRIES[1])?.imports).toEqual(['node:crypto']);
  });

  it("has one maker of node:crypto's SHA-256 and HMAC for the core, which the sandbox and the MSW mock both use", () => {
    const makers = ['sandbox', 'msw', 'sandbox-core'].flatMap((name) =>
      sourcesOf(name)
        .filter(({ code }) => /\bcreate(?:Hash|Hmac)\(\s*'sha256'|\bhash\(\s*'sha256'/.test(code))
        .map(({ path }) => `${name}/${path}`),
    );
    // The console's ETag hashes a file, and the compile cache its source; the drift guard hashes
    // the real service's bytes (a delivery's body and signature) and fingerprints its callers
    // (the exchange checker, for the proxy's recorder too): none of them is the core's.
    expect(makers.sort()).toEqual([
      'sandbox-core/node-crypto.ts',
      'sandbox/cli/compile-cache.ts',
      'sandbox/console-route.ts',
      'sandbox/contract-check/delivery-check.ts',
      'sandbox/contract-check/exchange-check.ts',
    ]);
  });
});

describe("the sandbox's storage seam", () => {
  const sources = sourcesOf('sandbox');
  /** The classes of the persistence folder but its errors: the storages and what they are made of. */
  const storageClasses = sources
    .filter(({ path }) => folderOf(path) === 'persistence')
    .flatMap(({ path, code }) => [...code.matchAll(/export class (\w+)/g)].map(([, name]) => ({ path, name: name! })))
    .filter(({ name }) => !name.endsWith('Error'));

  it('has a storage of memory and one of the data file, each a class of its own file', () => {
    expect(storageClasses).toEqual(
      expect.arrayContaining([
        { path: join('persistence', 'file-storage.ts'), name: 'FileStorage' },
        { path: join('persistence', 'memory-storage.ts'), name: 'MemoryStorage' },
      ]),
    );
  });

  it('tests no storage class with instanceof outside the file that makes it', () => {
    const tests = sources.flatMap(({ path, code }) =>
      [...code.matchAll(/\binstanceof\s+(\w+)/g)]
        .map(([, name]) => storageClasses.find((known) => known.name === name))
        .filter((known) => known !== undefined && known.path !== path)
        .map((known) => ({ path, tested: known!.name })),
    );
    expect(tests).toEqual([]);
  });

  it('reads no environment variable outside the CLI: the library does what its options say', () => {
    const readers = sources
      .filter(({ path, code }) => folderOf(path) !== 'cli' && /\bprocess\s*\.\s*env\b/.test(code))
      .map(({ path }) => path);
    expect(readers).toEqual([]);
  });
});

describe('the control API client (@fflkit/sandbox-core/control)', () => {
  it('imports nothing but @fflkit/types and its own files, so that a client carries none of the core', () => {
    const control = sourcesOf('sandbox-core').filter(({ path }) => folderOf(path) === 'control');
    expect(control.map(({ path }) => path)).toContain(join('control', 'index.ts'));
    const imported = control.flatMap(({ path, imports }) =>
      imports
        .filter((specifier) => specifier !== '@fflkit/types' && !/^\.\/[\w-]+$/.test(specifier))
        .map((specifier) => ({ path, imported: specifier })),
    );
    expect(imported).toEqual([]);
  });
});

describe('the scan of imports', () => {
  it('reads the imports of real sources, without those in comments', () => {
    const core = sourcesOf('sandbox-core');
    expect(folderImports(core).get('routing')).toContain('state');
    // core.ts shows `import ... from '@fflkit/sandbox-core'` only in a JSDoc example.
    expect(core.find(({ path }) => path === 'core.ts')?.imports).not.toContain('@fflkit/sandbox-core');
  });
});

/** What the sandbox's browser console may import: the contract's types and the control API client. */
const CONSOLE_MAY_IMPORT = ['@fflkit/types', '@fflkit/sandbox-core/control'];

describe("the sandbox's console (packages/sandbox/console/src)", () => {
  const files = sourcesOf('sandbox', join('console', 'src'));

  it('is read: its pages and its entry', () => {
    expect(files.map(({ path }) => path)).toEqual(
      expect.arrayContaining(['main.ts', 'control-api.ts', join('pages', 'sign-in.ts')]),
    );
  });

  it('imports only its own files, the types and the control client: no Node module, no core, no server', () => {
    const refused = files.flatMap(({ path, imports }) =>
      imports
        .filter((specifier) => !specifier.startsWith('.') && !CONSOLE_MAY_IMPORT.includes(specifier))
        .map((imported) => ({ path, imported })),
    );
    expect(refused).toEqual([]);
  });

  it("imports nothing from outside its folder, so that it bundles none of the sandbox's Node code", () => {
    // A type-only import is erased by the compiler and bundles nothing: the Drift page reads the
    // shape of the drift proxy's state that way, from the proxy that serves it.
    const typeOnly = (code: string): Set<string> =>
      new Set([...code.matchAll(/\bimport type \{[^}]*\} from '([^']+)'/g)].map((match) => match[1]!));
    const outside = files.flatMap(({ path, imports, code }) =>
      imports
        .filter((specifier) => specifier.startsWith('.') && join(dirname(path), specifier).startsWith('..'))
        .filter((specifier) => !typeOnly(code).has(specifier))
        .map((imported) => ({ path, imported })),
    );
    expect(outside).toEqual([]);
  });

  it('has no two folders that import each other, its entry (main.ts, which wires the pages) aside', () => {
    const edges = folderImports(files.filter(({ path }) => path !== 'main.ts'));
    expect(edges.get('pages')).toContain('.');
    const cycles = [...edges].flatMap(([from, to]) =>
      [...to].filter((target) => edges.get(target)?.has(from)).map((target) => `${from} <-> ${target}`),
    );
    expect(cycles).toEqual([]);
  });
});

describe('the rule on bare Node imports', () => {
  it("catches `fs` and `fs/promises` and lets `node:fs` and a package's name through", () => {
    const file = (...imports: string[]): SourceFile => ({ path: 'a.ts', imports, code: '' });
    expect(bareBuiltinImports([file('fs', 'node:fs', 'fs/promises', 'yaml', 'crypto')])).toEqual([
      { path: 'a.ts', imported: 'fs' },
      { path: 'a.ts', imported: 'fs/promises' },
      { path: 'a.ts', imported: 'crypto' },
    ]);
  });
});
