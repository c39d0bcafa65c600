import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const PACKAGE = fileURLToPath(new URL('../', import.meta.url));
const SRC = `${PACKAGE}src/`;

interface Example {
  /** `file.ts:line` of the example's opening fence. */
  readonly at: string;
  readonly code: string;
  /** The entry `@boundbook/webhooks` resolves to for this example: each build's own functions are shown on it. */
  readonly entry: 'index.ts' | 'web.ts';
}

/** Every ```ts block under an `@example` tag in the package's sources. */
function examples(): Example[] {
  const found: Example[] = [];
  for (const file of readdirSync(SRC).filter((name) => name.endsWith('.ts'))) {
    const lines = readFileSync(`${SRC}${file}`, 'utf8').split('\n');
    for (let index = 0; index < lines.length; index += 1) {
      if (lines[index]?.trim() !== '* @example') continue;
      const open = index + 1;
      expect(lines[open]?.trim(), `${file}:${open + 1}: an @example opens a \`\`\`ts fence`).toBe('* ```ts');
      let close = open + 1;
      while (lines[close]?.trim() !== '* ```') close += 1;
      const code = lines.slice(open + 1, close).map((line) => line.replace(/^\s*\* ?/, ''));
      found.push({ at: `${file}:${open + 1}`, code: code.join('\n'), entry: file === 'web.ts' ? 'web.ts' : 'index.ts' });
      index = close;
    }
  }
  return found;
}

/** The diagnostics of each example compiled as a module of its own, under the repository's strict tsconfig. */
function compile(all: readonly Example[]): Map<string, string[]> {
  const base = ts.getParsedCommandLineOfConfigFile(fileURLToPath(new URL('../../../tsconfig.base.json', import.meta.url)), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  const virtual = new Map(all.map((example, index) => [`${PACKAGE}examples/${index}-${example.entry}`, example]));
  const host = ts.createCompilerHost({});
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => virtual.get(name)?.code ?? readFile(name);
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) => {
    const example = virtual.get(name);
    return example ? ts.createSourceFile(name, example.code, version, true) : getSourceFile(name, version);
  };
  // Examples written for one build import from the package: resolve it to that build's entry.
  host.resolveModuleNameLiterals = (literals, containingFile, redirectedReference, options) =>
    literals.map(({ text }) => {
      const entry = virtual.get(containingFile)?.entry;
      const name = text === '@boundbook/webhooks' && entry ? `${SRC}${entry}` : text === '@boundbook/types' ? `${PACKAGE}../types/src/index.ts` : text;
      return ts.resolveModuleName(name, containingFile, options, host, undefined, redirectedReference);
    });
  const program = ts.createProgram([...virtual.keys()], { ...base?.options, noEmit: true, allowImportingTsExtensions: true, types: ['node'], noUnusedLocals: false }, host);
  const diagnostics = new Map<string, string[]>();
  for (const [name, example] of virtual) {
    const file = program.getSourceFile(name);
    const messages = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((diagnostic) => {
      const { line } = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0) ?? { line: 0 };
      return `line ${line + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
    });
    diagnostics.set(example.at, messages);
  }
  return diagnostics;
}

describe('the JSDoc examples of the public API', () => {
  const all = examples();

  it('are found on each public function, class and store of both builds', () => {
    const files = new Set(all.map((example) => example.at.split(':')[0]));
    expect([...files].sort()).toEqual(['adapters.ts', 'dedup.ts', 'errors.ts', 'index.ts', 'web.ts']);
    expect(all.filter((example) => example.entry === 'web.ts')).toHaveLength(4);
  });

  it('compile under the strict tsconfig, as integrators copy them', () => {
    const failures = [...compile(all)].filter(([, messages]) => messages.length > 0);
    expect(Object.fromEntries(failures)).toEqual({});
  }, 60_000);
});
