#!/usr/bin/env node
// The CI recipe of examples/ci, run as GitHub Actions would run it, on the packages as a registry
// serves them. It reads the job of examples/ci/github-actions.yml and runs its steps in order,
// each in `bash -eo pipefail` with the job's environment, in a new project made of
// examples/ci/test into which the README's `npm install --save-dev @fflkit/sandbox @fflkit/sdk`
// installed the packages (it writes the lockfile that the job's `npm ci` installs from), with that
// registry alone configured. The `uses:` steps (checkout, setup-node) are GitHub's own and are
// skipped, a step `if: always()` runs after a failure and one `if: failure()` only then. The port
// is a free one rather than 4010, so that the run does not meet a sandbox already on this machine.
// Usage: node scripts/ci-recipe.mjs --registry <url>. `pnpm test:registry` publishes the packages
// to a local registry and runs this on it. Keeps the temporary folder when a step fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { useRegistry } from './registry/local-registry.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const recipe = join(root, 'examples/ci');
const { registry } = parseArgs({ options: { registry: { type: 'string' } } }).values;
if (registry === undefined) {
  console.error(
    'Usage: node scripts/ci-recipe.mjs --registry <url> (pnpm test:registry publishes the packages to a local registry and runs this)',
  );
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'fflkit-ci-recipe-'));
const project = join(work, 'project');
const started = performance.now();

const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/**
 * The project of the recipe: its tests and fixtures, a package.json with the script the job
 * runs, and the packages the README has the user install. Returns the environment that reads
 * the project's registry alone.
 */
function makeProject() {
  const env = useRegistry(project, registry);
  cpSync(join(recipe, 'test'), join(project, 'test'), { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify(
      { name: 'fflkit-ci-recipe', private: true, type: 'module', scripts: { test: 'node --test test/' } },
      null,
      2,
    ),
  );
  execFileSync(
    'npm',
    [
      'install',
      '--save-dev',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      '@fflkit/sandbox',
      '@fflkit/sdk',
    ],
    { cwd: project, env, stdio: 'inherit' },
  );
  return env;
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The job's environment, on `port` instead of the workflow's 4010. */
function jobEnvironment(job, port, base) {
  const env = { ...base };
  for (const [name, value] of Object.entries(job.env ?? {})) env[name] = String(value).replaceAll(':4010', `:${port}`);
  env.FFLKIT_SANDBOX_PORT = String(port);
  return env;
}

/** Whether a step runs, as GitHub decides it from its `if:` and whether a step failed before. */
function runs(step, failed) {
  if (step.if === undefined) return !failed;
  if (step.if === 'always()') return true;
  if (step.if === 'failure()') return failed;
  throw new Error(`ci-recipe: the step "${step.name}" has an if: this script does not know: ${step.if}`);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function main() {
  const workflow = parse(readFileSync(join(recipe, 'github-actions.yml'), 'utf8'));
  const job = workflow.jobs?.test;
  if (job === undefined || !Array.isArray(job.steps))
    throw new Error('ci-recipe: examples/ci/github-actions.yml has no job "test" with steps');
  const commands = job.steps.map((step) => step.run ?? '').join('\n');
  for (const needed of ['npm ci', '/_sandbox/health', 'npm test', 'kill ']) {
    if (!commands.includes(needed))
      throw new Error(
        `ci-recipe: the job has no step that runs ${JSON.stringify(needed)}: this script runs the job as it is, and expects it`,
      );
  }

  console.log(`--> npm install --save-dev @fflkit/sandbox @fflkit/sdk from ${registry} (${seconds()})`);
  const base = makeProject();
  const port = await freePort();
  const env = jobEnvironment(job, port, base);

  let failed = false;
  for (const step of job.steps) {
    const name = step.name ?? step.uses ?? step.run;
    if (step.uses !== undefined) {
      console.log(`--> ${name}: GitHub's own action, skipped (${seconds()})`);
      continue;
    }
    if (!runs(step, failed)) continue;
    console.log(`--> ${name} (${seconds()})`);
    const { status } = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
      cwd: project,
      env,
      stdio: 'inherit',
    });
    if (status !== 0) {
      console.error(`ci-recipe: the step "${name}" failed with exit code ${status}`);
      failed = true;
    }
  }

  // The job must leave nothing running: its stop step ends the sandbox it started.
  const pid = Number(readFileSync(join(project, 'sandbox.pid'), 'utf8'));
  for (let waited = 0; isAlive(pid) && waited < 100; waited += 1)
    await new Promise((resolve) => setTimeout(resolve, 100));
  if (isAlive(pid)) {
    process.kill(pid, 'SIGKILL');
    throw new Error(`ci-recipe: the sandbox (process ${pid}) still ran 10 s after the job's stop step: it was killed`);
  }
  if (failed) throw new Error('ci-recipe: a step of the job failed');
}

try {
  await main();
  rmSync(work, { recursive: true, force: true });
  console.log(`\nThe CI recipe of examples/ci runs on the packages from ${registry} (${seconds()}).`);
} catch (error) {
  console.error(
    `\n${error instanceof Error ? error.message : error}\nKept ${work} for inspection${readdirSync(work).includes('project') ? ` (the sandbox's output: ${join(project, 'sandbox.log')})` : ''}.`,
  );
  process.exitCode = 1;
}
