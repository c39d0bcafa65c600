#!/usr/bin/env node
// `pnpm build:image`: the sandbox's container image (packages/sandbox/container/Containerfile),
// built FROM scratch out of this machine's Node and its shared libraries, with podman or docker,
// whichever is installed (FFLKIT_CONTAINER_ENGINE chooses). Nothing is pulled. The root script
// builds the CLI's bundle first (packages/sandbox/dist); this script assembles the image's
// context in a temporary folder, makes V8's compile cache of the bundle with the same Node, and
// builds. Linux only: the image holds this machine's own executables.
//   pnpm build:image [--tag NAME:TAG]...
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { containerEngine } from './container/engine.mjs';
import { copyExecutable, copyFile, makeFolder, writeSystemFiles } from './container/rootfs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const sandboxDir = join(root, 'packages/sandbox');
const distDir = join(sandboxDir, 'dist');
const containerDir = join(sandboxDir, 'container');

/** The user the sandbox runs as in the image; the Containerfile's `USER` and `--chown` say the same. */
export const IMAGE_USER = { name: 'sandbox', id: 1000, home: '/data' };
/** Where Node is in the image: the Containerfile's entry point and health check name it. */
const IMAGE_NODE = '/usr/local/bin/node';

/** The sandbox package's version, for the image's tag and label. */
export function sandboxVersion() {
  return JSON.parse(readFileSync(join(sandboxDir, 'package.json'), 'utf8')).version;
}

/** The image's default tags: its version and `latest`. */
export function defaultTags() {
  return [`fflkit-sandbox:${sandboxVersion()}`, 'fflkit-sandbox:latest'];
}

/**
 * Fills `context` with what the Containerfile copies: `rootfs/` (Node from `node` with its
 * libraries, the system files, and the sandbox in /app: the launcher, the bundled
 * program, the console, the health check, the compile cache) and an empty `data/`.
 * Resolves once the compile cache is made.
 */
export async function assembleContext(context, { node = process.execPath } = {}) {
  for (const file of ['cli.cjs', 'cli-program.cjs', 'console/index.html']) {
    if (!existsSync(join(distDir, file))) {
      throw new Error(`build-image: packages/sandbox/dist/${file} is missing: run pnpm build:image, which builds it`);
    }
  }
  const rootfs = join(context, 'rootfs');
  copyExecutable(rootfs, node, IMAGE_NODE);
  writeSystemFiles(rootfs, IMAGE_USER);
  copyFile(rootfs, join(distDir, 'cli.cjs'), '/app/cli.cjs');
  copyFile(rootfs, join(distDir, 'cli-program.cjs'), '/app/cli-program.cjs');
  cpSync(join(distDir, 'console'), join(rootfs, 'app/console'), { recursive: true });
  copyFile(rootfs, join(containerDir, 'health-check.mjs'), '/app/health-check.mjs');
  await makeCompileCache(node, join(rootfs, 'app'));
  makeFolder(context, 'data', 0o700);
}

/**
 * Starts the sandbox of `app` once, in memory, so that the launcher saves V8's compiled code of
 * the whole start-up into `app/compile-cache` (the image's FFLKIT_SANDBOX_COMPILE_CACHE); a
 * container then starts without compiling the bundle. The cache holds for the same Node (V8
 * checks its version and flags, and ignores a cache it cannot use).
 */
async function makeCompileCache(node, app) {
  const cacheDir = join(app, 'compile-cache');
  // None of the builder's own FFLKIT_SANDBOX_* settings applies to this run, nor NODE_OPTIONS,
  // whose V8 flags would make a cache that the image's Node rejects.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('FFLKIT_SANDBOX_') && name !== 'NODE_OPTIONS'),
  );
  const child = spawn(node, [join(app, 'cli.cjs'), '--memory', '--host', '127.0.0.1', '--port', '0', '--quiet'], {
    env: { ...env, FFLKIT_SANDBOX_COMPILE_CACHE: cacheDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`build-image: the sandbox did not start within 30 s:\n${output}`)),
      30_000,
    );
    const onData = (chunk) => {
      output += chunk;
      // The launcher saves the cache once the banner is out, before it reads any signal.
      if (/listening on/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    exited.then((code) => reject(new Error(`build-image: the sandbox exited with ${code} before serving:\n${output}`)));
  });
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`build-image: the sandbox exited with ${code} on SIGTERM:\n${output}`);
  const files = existsSync(cacheDir) ? readdirSync(cacheDir) : [];
  if (files.length !== 1) throw new Error(`build-image: the sandbox left no compile cache in ${cacheDir}`);
  chmodSync(cacheDir, 0o755);
  for (const file of files) chmodSync(join(cacheDir, file), 0o644);
}

/**
 * Builds the image with `engine` (see scripts/container/engine.mjs) under `tags`; resolves with
 * its size in bytes. Podman builds in Docker's format, the one that keeps the HEALTHCHECK.
 */
export async function buildImage(engine, tags = defaultTags()) {
  if (process.platform !== 'linux') {
    throw new Error(
      'build-image: the image is made of this machine’s Linux executables: build it on Linux (or in a Linux VM or CI job)',
    );
  }
  const context = mkdtempSync(join(tmpdir(), 'fflkit-image-'));
  try {
    await assembleContext(context);
    const format = engine.name === 'podman' ? ['--format', 'docker'] : [];
    engine.run([
      'build',
      ...format,
      '--file',
      join(containerDir, 'Containerfile'),
      '--build-arg',
      `VERSION=${sandboxVersion()}`,
      ...tags.flatMap((tag) => ['--tag', tag]),
      context,
    ]);
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  return Number(engine.run(['image', 'inspect', '--format', '{{.Size}}', tags[0]]).stdout.trim());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let tags;
  try {
    tags = parseArgs({ options: { tag: { type: 'string', multiple: true } } }).values.tag ?? defaultTags();
  } catch (error) {
    process.stderr.write(`build-image: ${error.message}\nUsage: pnpm build:image [--tag NAME:TAG]...\n`);
    process.exit(2);
  }
  let engine;
  try {
    engine = containerEngine();
    const size = await buildImage(engine, tags);
    process.stdout.write(`Built ${tags.join(', ')} with ${engine.name}: ${(size / 1e6).toFixed(1)} MB\n`);
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  } finally {
    engine?.dispose();
  }
}
