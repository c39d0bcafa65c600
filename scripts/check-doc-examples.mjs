// Compiles every TypeScript example of the documentation, as an integrator would paste it: each
// ```ts block of the READMEs and each @example of the packages' sources, as a module of its own,
// under the repository's strict tsconfig (tsconfig.base.json). `@fflkit/*` resolves to the
// packages' sources (their `@fflkit/source` export condition), so no build is needed. Each
// example is compiled in the folder of its package or example, so that it imports what that
// folder depends on (express for the webhooks adapters, the example's own modules).
//
// A README block may need names it does not show (an Express `app`, a client `logbook`): an HTML
// comment right before its fence, `<!-- ts-context: declare const app: Express; -->`, is compiled
// ahead of it and stays invisible on the page. A `declare module 'hono' { ... }` in a context
// stands for a module that does not resolve here (a framework no package installs, an app's own
// `@/lib/...`): it is declared once for every example, so two contexts declaring one module must
// agree. For a module that resolves, it stays in the example and augments that module. An
// example of the web build of @fflkit/webhooks (packages/webhooks/src/web.ts) imports that
// build.
//
// Run: node scripts/check-doc-examples.mjs [path ...]  (part of `pnpm lint`); paths, such as
// packages/sdk, keep the documents under them only.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every README of the repository and every source file of the packages. */
function documents() {
  const readmes = ['README.md'];
  const sources = [];
  for (const group of ['packages', 'examples']) {
    for (const name of readdirSync(join(ROOT, group))) {
      const folder = join(ROOT, group, name);
      if (!statSync(folder).isDirectory()) continue;
      try {
        statSync(join(folder, 'README.md'));
        readmes.push(join(group, name, 'README.md'));
      } catch {
        // A folder without a README has no examples to check.
      }
      if (group === 'packages')
        sources.push(...walk(join(folder, 'src')).filter((file) => !file.includes('/generated/')));
    }
  }
  const only = process.argv.slice(2).map((path) => relative(ROOT, join(process.cwd(), path)));
  const kept = (file) => only.length === 0 || only.some((path) => file === path || file.startsWith(`${path}/`));
  return { readmes: readmes.filter(kept), sources: sources.map((file) => relative(ROOT, file)).filter(kept) };
}

function walk(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The ```ts blocks of a Markdown file, each with the hidden context that precedes it. */
function markdownExamples(file) {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const found = [];
  for (let index = 0; index < lines.length; index += 1) {
    // A TypeScript fence this reader would not take (```ts title, ```tsx) must not slip by unchecked.
    const info = /^```\s*(\S.*)?$/.exec(lines[index])?.[1]?.trim() ?? '';
    if (/^(ts|typescript)/i.test(info) && info !== 'ts' && info !== 'typescript') {
      found.push({
        at: `${file}:${index + 1}`,
        code: '',
        problem: 'a TypeScript fence is written ```ts alone, so that it is checked',
      });
      continue;
    }
    if (!/^```(ts|typescript)\s*$/.test(lines[index])) continue;
    const { context, modules } = splitContext(
      /^<!--\s*ts-context:\s*([\s\S]*?)\s*-->$/.exec(lines[index - 1] ?? '')?.[1] ?? '',
    );
    let close = index + 1;
    while (close < lines.length && lines[close] !== '```') close += 1;
    found.push({
      at: `${file}:${index + 1}`,
      folder: dirname(file),
      modules,
      code: `${context}\n${lines.slice(index + 1, close).join('\n')}`,
    });
    index = close;
  }
  return found;
}

/** A context's `declare module '...' { ... }` statements, apart from the rest of it. */
function splitContext(text) {
  const source = ts.createSourceFile('context.ts', text, ts.ScriptTarget.Latest, true);
  const modules = [];
  let context = text;
  for (const statement of [...source.statements].reverse()) {
    if (!ts.isModuleDeclaration(statement) || !ts.isStringLiteral(statement.name)) continue;
    modules.unshift({ name: statement.name.text, text: statement.getText(source) });
    context = context.slice(0, statement.getStart(source)) + context.slice(statement.end);
  }
  return { context, modules };
}

/** The ```ts blocks under `@example` in a source file's comments. */
function jsdocExamples(file) {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const found = [];
  for (let index = 0; index < lines.length; index += 1) {
    // An @example in any other form (with a title, say) would be skipped: it is refused instead.
    if (/^\s*\*\s*@example\b/.test(lines[index]) && lines[index].trim() !== '* @example') {
      found.push({
        at: `${file}:${index + 1}`,
        code: '',
        problem: 'an @example tag stands alone on its line, so that it is checked',
      });
      continue;
    }
    if (lines[index].trim() !== '* @example') continue;
    const open = index + 1;
    if (lines[open]?.trim() !== '* ```ts') {
      found.push({ at: `${file}:${open + 1}`, code: '', problem: 'an @example opens a ```ts fence' });
      continue;
    }
    let close = open + 1;
    while (close < lines.length && lines[close].trim() !== '* ```') close += 1;
    const code = lines
      .slice(open + 1, close)
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .join('\n');
    const web = file === 'packages/webhooks/src/web.ts';
    found.push({
      at: `${file}:${open + 1}`,
      folder: packageFolder(file),
      code: web ? code.replaceAll("'@fflkit/webhooks'", "'@fflkit/webhooks/web'") : code,
    });
    index = close;
  }
  return found;
}

/** `packages/name` of `packages/name/src/...`. */
function packageFolder(file) {
  return file.split('/').slice(0, 2).join('/');
}

function compilerOptions() {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.base.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  return {
    ...parsed.options,
    noEmit: true,
    types: ['node'],
    customConditions: ['@fflkit/source'],
    // An example shows a call: a value it makes and does not use again is not a mistake there.
    noUnusedLocals: false,
    noUnusedParameters: false,
  };
}

function check() {
  const { readmes, sources } = documents();
  const examples = [...readmes.flatMap(markdownExamples), ...sources.flatMap(jsdocExamples)];
  const problems = examples.filter((example) => example.problem).map((example) => `${example.at}: ${example.problem}`);
  // Each example is a module of its own in its package's or example's folder, so that the
  // folder's node_modules, then the root's, and the packages' exports maps resolve its imports.
  const virtual = new Map(
    examples
      .filter((example) => !example.problem)
      .map((example, index) => [join(ROOT, example.folder, `.doc-example-${index}.ts`), example]),
  );
  const options = compilerOptions();
  // The modules the contexts declare that do not resolve, once each, in one file of global
  // declarations; the others augment the module they name, in the example's own code.
  const declared = new Map();
  for (const [file, example] of virtual) {
    for (const { name, text } of example.modules ?? []) {
      if (ts.resolveModuleName(name, file, options, ts.sys).resolvedModule !== undefined) {
        example.code = `${example.code}\n${text}`;
        continue;
      }
      if (declared.has(name) && declared.get(name).text !== text) {
        problems.push(
          `${example.at}: its context declares module '${name}' unlike ${declared.get(name).at}: declare it alike in both`,
        );
      } else if (!declared.has(name)) declared.set(name, { text, at: example.at });
    }
  }
  const ambient = join(ROOT, '.doc-example-modules.d.ts');
  const ambientText = [...declared.values()].map(({ text }) => text).join('\n');
  const textOf = (name) => (name === ambient ? ambientText : moduleText(virtual.get(name).code));
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  const own = (name) => virtual.has(name) || name === ambient;
  host.fileExists = (name) => own(name) || fileExists.call(host, name);
  host.readFile = (name) => (own(name) ? textOf(name) : readFile.call(host, name));
  host.getSourceFile = (name, version, ...rest) =>
    own(name)
      ? ts.createSourceFile(name, textOf(name), version, true)
      : getSourceFile.call(host, name, version, ...rest);
  const program = ts.createProgram([...virtual.keys(), ambient], options, host);
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file;
    const example = file ? virtual.get(file.fileName) : undefined;
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (example === undefined) {
      problems.push(`${file ? relative(ROOT, file.fileName) : 'tsc'}: ${message}`);
      continue;
    }
    const line = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line;
    const code = moduleText(example.code).split('\n')[line] ?? '';
    problems.push(`${example.at} (example line ${line + 1}: ${code.trim()})\n    ${message}`);
  }
  return { problems, count: examples.length };
}

/** An example as a module: top-level await and its own scope need one. */
function moduleText(code) {
  return `${code}\nexport {};\n`;
}

const { problems, count } = check();
// Run on the whole repository, finding none means the readers broke, not that all is well.
if (process.argv.length <= 2 && count === 0)
  problems.push('no TypeScript example was found: the readers of READMEs and @example tags are broken');
if (problems.length > 0) {
  console.error(`${problems.length} problem(s) in the ${count} TypeScript examples of the documentation:\n`);
  for (const problem of problems) console.error(`- ${problem}`);
  process.exit(1);
}
console.log(`The ${count} TypeScript examples of the documentation compile.`);
