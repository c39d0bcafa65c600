#!/usr/bin/env node
// The CI recipe of examples/ci, run as GitHub Actions would run it, on the packages as they are
// packed (they are not published yet). It reads the job of examples/ci/github-actions.yml and
// runs its steps in order, each in `bash -eo pipefail` with the job's environment, in a new
// project made of examples/ci/test: `npm ci` installs the packed tarballs instead (a new project
// has no lockfile), the `uses:` steps (checkout, setup-node) are GitHub's own and are skipped, a
// step `if: always()` runs after a failure and one `if: failure()` only then. The port is a free
// one rather than 4010, so that the run does not meet a sandbox already on this machine.
// Expects the packages built (`pnpm build`). Keeps the temporary folder when a step fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
const recipe = join(root, 'examples/ci');
const work = mkdtempSync(join(tmpdir(), 'fflkit-ci-recipe-'));
const tarballs = join(work, 'tarballs');
const project = join(work, 'project');
const started = performance.now();
/** The packages the recipe's project installs, with the workspace packages they depend on. */
const PACKAGES = ['types', 'sandbox-core', 'mcp', 'sandbox', 'sdk'];

const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** Packs the packages as they would be published. */
function pack() {
  mkdirSync(tarballs);
  return PACKAGES.map((dir) => {
    const { name } = readJson(join(root, 'packages', dir, 'package.json'));
    const output = execFileSync('pnpm', ['pack', '--json', '--pack-destination', tarballs], {
      cwd: join(root, 'packages', dir),
      encoding: 'utf8',
    });
    return { name, filename: JSON.parse(output).filename };
  });
}

/** The project of the recipe: its tests and fixtures, and a package.json of what the workflow expects. */
function makeProject(packed) {
  mkdirSync(project);
  cpSync(join(recipe, 'test'), join(project, 'test'), { recursive: true });
  const local = Object.fromEntries(packed.map(({ name, filename }) => [name, `file:${filename}`]));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify(
      {
        name: 'fflkit-ci-recipe',
        private: true,
        type: 'module',
        scripts: { test: 'node --test test/' },
        devDependencies: { '@fflkit/sandbox': local['@fflkit/sandbox'], '@fflkit/sdk': local['@fflkit/sdk'] },
        // The packages depend on each other at versions the registry does not have: take the tarballs.
        overrides: Object.fromEntries(packed.map(({ name }) => [name, local[name]])),
      },
      null,
      2,
    ),
  );
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The job's environment, on `port` instead of the workflow's 4010. */
function jobEnvironment(job, port) {
  const env = { ...process.env };
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

  console.log(`--> Packing ${PACKAGES.map((dir) => `@fflkit/${dir}`).join(', ')} (${seconds()})`);
  const packed = pack();
  makeProject(packed);
  const port = await freePort();
  const env = jobEnvironment(job, port);

  let failed = false;
  for (const step of job.steps) {
    const name = step.name ?? step.uses ?? step.run;
    if (step.uses !== undefined) {
      console.log(`--> ${name}: GitHub's own action, skipped (${seconds()})`);
      continue;
    }
    if (!runs(step, failed)) continue;
    // A new project has no lockfile for `npm ci`: its install of the tarballs stands in.
    const script =
      step.run.trim() === 'npm ci' ? 'npm install --prefer-offline --no-audit --no-fund --loglevel=error' : step.run;
    console.log(`--> ${name} (${seconds()})`);
    const { status } = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
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
  console.log(`\nThe CI recipe of examples/ci runs on the packed packages (${seconds()}).`);
} catch (error) {
  console.error(
    `\n${error instanceof Error ? error.message : error}\nKept ${work} for inspection${readdirSync(work).includes('project') ? ` (the sandbox's output: ${join(project, 'sandbox.log')})` : ''}.`,
  );
  process.exitCode = 1;
}
