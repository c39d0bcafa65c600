#!/usr/bin/env node
// The release rehearsed on a local registry (`pnpm test:registry`): starts Verdaccio on
// 127.0.0.1 (scripts/registry/), publishes every public package to it as a release publishes to
// npm, at a snapshot version, from a copy of the working tree, checks what it serves, then, with
// that registry alone configured, installs the packages into new projects outside the workspace
// and uses them there: the consumer smoke test, `npx @fflkit/sandbox --version` and the CI recipe
// of examples/ci. Needs nothing built. Keeps the temporary folder when a step fails.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPublished } from './registry/check-published.mjs';
import { startLocalRegistry, useRegistry } from './registry/local-registry.mjs';
import { publishSnapshot } from './registry/publish-snapshot.mjs';

const scripts = fileURLToPath(new URL('.', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'fflkit-registry-'));
const started = performance.now();

function step(title) {
  console.log(`\n==> ${title} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

/** Runs a script of this folder as a child, so that the registry, in its own process, keeps answering. */
function runScript(script, registry) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(scripts, script), '--registry', registry], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`scripts/${script} failed (${code ?? signal})`)),
    );
  });
}

/** `npx @fflkit/sandbox --version` in an empty folder with an empty npm cache, as on a new machine. */
function npxVersion(registry) {
  const folder = join(work, 'npx');
  const env = useRegistry(folder, registry);
  mkdirSync(join(work, 'npx-cache'));
  return execFileSync('npx', ['--yes', '@fflkit/sandbox', '--version'], {
    cwd: folder,
    env: { ...env, npm_config_cache: join(work, 'npx-cache') },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

const registry = await startLocalRegistry(join(work, 'registry'));
let failed = false;
try {
  step(`Started the local registry (Verdaccio) at ${registry.url}, its storage in ${join(work, 'registry')}`);
  const published = publishSnapshot({
    workspace: join(work, 'workspace'),
    registry: registry.url,
    userconfig: registry.userconfig,
    step,
  });

  step('Checking every package as the registry serves it (manifest, tarball, README links)');
  await checkPublished(registry.url, published);
  console.log(`\n$ npm view @fflkit/sdk --registry ${registry.url}`);
  execFileSync('npm', ['view', '@fflkit/sdk', '--registry', registry.url], {
    stdio: 'inherit',
    env: useRegistry(join(work, 'view'), registry.url),
  });

  step('Installing the packages from the registry into a new project and using them (scripts/consumer-smoke-test.mjs)');
  await runScript('consumer-smoke-test.mjs', registry.url);

  step('npx @fflkit/sandbox --version, from the registry into an empty npm cache');
  const sandbox = published.find(({ name }) => name === '@fflkit/sandbox');
  const printed = npxVersion(registry.url);
  console.log(printed);
  if (printed !== sandbox?.version)
    throw new Error(`npx @fflkit/sandbox --version printed ${printed}, not ${sandbox?.version}`);

  step('Running the CI recipe of examples/ci on the packages from the registry (scripts/ci-recipe.mjs)');
  await runScript('ci-recipe.mjs', registry.url);
} catch (error) {
  failed = true;
  console.error(`\n${error instanceof Error ? error.message : error}\nKept ${work} for inspection.`);
  process.exitCode = 1;
} finally {
  await registry.stop();
}
if (!failed) {
  rmSync(work, { recursive: true, force: true });
  console.log(
    `\nEvery package published to a local registry, installed from it and used as a user would (${((performance.now() - started) / 1000).toFixed(1)} s).`,
  );
}
