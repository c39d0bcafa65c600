#!/usr/bin/env node
// The packages as a user gets them: installed from a registry into a new project outside the
// workspace, with the commands of the READMEs and that registry alone configured, then used there
// from ESM and CommonJS, through the web build of @fflkit/webhooks (its conditions and its /web
// subpath), under tsc, and through the fflkit-sandbox CLI. The versions the packages state (the
// CLI's --version, the health answer, the SDK's User-Agent) must be those installed.
// Usage: node scripts/consumer-smoke-test.mjs --registry <url>. `pnpm test:registry` publishes the
// packages to a local registry and runs this on it. Keeps the temporary folder when a step fails.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { useRegistry } from './registry/local-registry.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = fileURLToPath(new URL('consumer-smoke', import.meta.url));
const { registry } = parseArgs({ options: { registry: { type: 'string' } } }).values;
if (registry === undefined) {
  console.error(
    'Usage: node scripts/consumer-smoke-test.mjs --registry <url> (pnpm test:registry publishes the packages to a local registry and runs this)',
  );
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'fflkit-consumer-'));
const project = join(work, 'project');
const env = useRegistry(project, registry);
const started = performance.now();

function step(title) {
  console.log(`\n--> ${title} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

function run(command, args, options = {}) {
  return execFileSync(command, args, { cwd: project, env, stdio: 'inherit', encoding: 'utf8', ...options });
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The commands of the READMEs, then the compiler that the type checks below use. */
function install() {
  const { devDependencies } = readJson(join(root, 'package.json'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fflkit-consumer', private: true }, null, 2));
  const npmInstall = (...args) =>
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...args]);
  step(`Installing from ${registry}: npm install @fflkit/sdk @fflkit/webhooks`);
  npmInstall('@fflkit/sdk', '@fflkit/webhooks');
  step('npm install -D @fflkit/sandbox @fflkit/msw msw');
  npmInstall('-D', '@fflkit/sandbox', '@fflkit/msw', 'msw');
  npmInstall('-D', `typescript@${devDependencies.typescript}`, `@types/node@${devDependencies['@types/node']}`);
  cpSync(fixtures, project, { recursive: true });
  copyFileSync(join(project, 'types.mts'), join(project, 'types.cts'));
}

/**
 * Every package came from the registry, and each of the toolkit's is installed once, at the
 * top, at the version the registry tags latest.
 */
async function checkInstalled() {
  const lock = readJson(join(project, 'package-lock.json'));
  const toolkit = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.link) continue;
    if (!entry.resolved?.startsWith(registry))
      throw new Error(`${path} was installed from ${entry.resolved}, not from ${registry}`);
    if (!path.includes('node_modules/@fflkit/')) continue;
    if (path.lastIndexOf('node_modules/') !== 0)
      throw new Error(`${path} is installed twice: a package asks for another version of it than the one published`);
    toolkit.push([path.slice('node_modules/'.length), entry.version]);
  }
  for (const [name, version] of toolkit) {
    const response = await fetch(new URL(name.replace('/', '%2f'), registry), {
      headers: { accept: 'application/json' },
    });
    const latest = (await response.json())['dist-tags']?.latest;
    if (version !== latest) throw new Error(`${name}@${version} was installed, but the registry tags ${latest} latest`);
    console.log(`${name}@${version}`);
  }
}

async function runCli() {
  step('Running the fflkit-sandbox CLI');
  const bin = join(project, 'node_modules/.bin/fflkit-sandbox');
  const cliEnv = { ...env, FFLKIT_SANDBOX_COMPILE_CACHE: join(work, 'compile-cache') };
  if (!run(bin, ['--help'], { stdio: 'pipe', env: cliEnv }).includes('Usage: fflkit-sandbox'))
    throw new Error('--help printed no usage');
  const { version } = readJson(join(project, 'node_modules/@fflkit/sandbox/package.json'));
  const printed = run(bin, ['--version'], { stdio: 'pipe', env: cliEnv }).trim();
  if (printed !== version) throw new Error(`fflkit-sandbox --version printed ${printed}, not ${version}`);
  const cli = spawn(bin, ['--memory', '--port', '0', '--quiet'], {
    cwd: project,
    env: cliEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => cli.on('exit', (code, signal) => resolve(code ?? signal)));
  try {
    let output = '';
    const [, apiUrl, token] = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the CLI printed no token within 20 s:\n${output}`)), 20_000);
      cli.stdout.on('data', (chunk) => {
        output += chunk;
        const found = /listening on (\S+)[\s\S]*?(sbx_\S+)\s/.exec(output);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
      });
      exited.then((code) => reject(new Error(`the CLI exited with ${code}:\n${output}`)));
    });
    const response = await fetch(`${apiUrl}/books`, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200)
      throw new Error(`GET ${apiUrl}/books with the printed token answered ${response.status}`);
    const health = await (await fetch(new URL('/_sandbox/health', apiUrl))).json();
    if (health.data?.version !== version)
      throw new Error(`GET /_sandbox/health answered ${JSON.stringify(health)}, not the version ${version}`);
    const { mcpTools } = await import(pathToFileURL(join(project, 'check-packages.mjs')).href);
    if (!(await mcpTools(new URL(apiUrl).origin, token)).includes('"name":"create_receipt"'))
      throw new Error('the CLI did not list the MCP tools at /_sandbox/mcp');
    console.log(
      `The CLI ${version} served ${apiUrl}, answered GET /books with 200, its health with its version, and listed its MCP tools.`,
    );
  } finally {
    cli.kill('SIGTERM');
  }
  // A CLI that ignores SIGTERM must fail the run, not hang CI: it gets 10 s, then SIGKILL.
  // (The timer is unref'd, so that it does not keep the script alive once the CLI has exited.)
  const code = await Promise.race([exited, delay(10_000, 'deadline', { ref: false })]);
  if (code === 'deadline') {
    cli.kill('SIGKILL');
    await exited;
    throw new Error(
      'the CLI was still running 10 s after SIGTERM: it was killed with SIGKILL; it must close its server and exit on SIGTERM',
    );
  }
  if (code !== 0) throw new Error(`the CLI exited with ${code} on SIGTERM`);
}

try {
  install();
  await checkInstalled();
  step('Importing every package from ESM');
  run('node', ['smoke.mjs']);
  step('Requiring every package from CommonJS');
  run('node', ['smoke.cjs']);
  step('Importing and requiring the web build of @fflkit/webhooks (browser condition)');
  run('node', ['--conditions=browser', 'web.mjs']);
  step('Importing and requiring @fflkit/webhooks/web (no condition)');
  run('node', ['web-subpath.mjs']);
  step('Type-checking a consumer as ESM and CommonJS (tsc, module node16)');
  run('node', ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.node16.json']);
  step('Type-checking a consumer with a bundler (tsc, moduleResolution bundler, browser condition)');
  run('node', ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.bundler.json']);
  await runCli();
  rmSync(work, { recursive: true, force: true });
  console.log(
    `\nThe packages install from the registry and work in a new project (${((performance.now() - started) / 1000).toFixed(1)} s).`,
  );
} catch (error) {
  console.error(`\n${error instanceof Error ? error.message : error}\nKept ${work} for inspection.`);
  process.exitCode = 1;
}
