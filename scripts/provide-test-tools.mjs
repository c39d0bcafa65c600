#!/usr/bin/env node
// What `pnpm test` runs besides Node, provided before anything runs, so that no test is skipped
// or fails late: Chromium for the browser tests (the MSW handlers under setupWorker, the sandbox
// console), the executable named by CHROMIUM_PATH or else Debian's /usr/bin/chromium; python3 and
// php for the webhook receivers of examples/ (on the PATH). What is missing is installed from
// Debian's packages with apt-get when this runs as root (as CI does, and a fresh container);
// otherwise it exits 1 saying how to provide it. Prints the version of each.
// `--only chromium` provides Chromium alone (pnpm test:console).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const configuredChromium = process.env.CHROMIUM_PATH || undefined;
const TOOLS = [
  {
    name: 'chromium',
    purpose: 'the browser tests',
    executable: configuredChromium ?? '/usr/bin/chromium',
    debianPackage: 'chromium',
    present: (tool) => existsSync(tool.executable),
  },
  { name: 'python3', purpose: 'the Python receiver', executable: 'python3', debianPackage: 'python3' },
  { name: 'php', purpose: 'the PHP receiver', executable: 'php', debianPackage: 'php-cli' },
];

function fail(reason) {
  process.stderr.write(`pnpm test needs ${reason}\n`);
  process.exit(1);
}

/** Runs `apt-get` with `args`, quietly; true when it succeeded. */
function aptGet(args) {
  const result = spawnSync('apt-get', ['-qq', ...args], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return result.status === 0;
}

/** `executable --version`, or undefined when it cannot be run (not found, or it fails). */
function version(executable) {
  // Debian's Chromium launcher can print a shell warning from its /dev/shm check: only stdout counts.
  const run = spawnSync(executable, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return run.status === 0 ? run.stdout.split('\n', 1)[0].trim() : undefined;
}

const only = process.argv.indexOf('--only');
const wanted = only === -1 ? TOOLS : TOOLS.filter((tool) => tool.name === process.argv[only + 1]);
if (wanted.length === 0) fail(`a tool it knows after --only (${TOOLS.map((tool) => tool.name).join(', ')}).`);

if (configuredChromium !== undefined && wanted.some((tool) => tool.name === 'chromium')) {
  if (!existsSync(configuredChromium))
    fail(`Chromium for the browser tests: CHROMIUM_PATH is ${configuredChromium}, which does not exist.`);
}

const missing = wanted.filter((tool) => (tool.present ? !tool.present(tool) : version(tool.executable) === undefined));
if (missing.length > 0) {
  const packages = missing.map((tool) => tool.debianPackage);
  const what = missing.map((tool) => `${tool.name} for ${tool.purpose}`).join(', ');
  const hasAptGet = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  const chromiumHint = missing.some((tool) => tool.name === 'chromium')
    ? ', or set CHROMIUM_PATH to a Chromium executable'
    : '';
  if (!hasAptGet) fail(`${what}: install ${missing.map((tool) => tool.name).join(' and ')}${chromiumHint}.`);
  if (process.getuid?.() !== 0)
    fail(`${what}: install Debian's packages (sudo apt-get install ${packages.join(' ')})${chromiumHint}.`);
  process.stdout.write(
    `Installing Debian's ${packages.join(', ')} for ${missing.map((tool) => tool.purpose).join(', ')} (apt-get install)\n`,
  );
  const install = ['install', '-y', '--no-install-recommends', ...packages];
  // A machine that never fetched the package lists (a fresh container) needs them first.
  if (!aptGet(install) && !(aptGet(['update']) && aptGet(install))) {
    fail(`${what}: apt-get install ${packages.join(' ')} failed (see above); install them yourself${chromiumHint}.`);
  }
}

for (const tool of wanted) {
  const found = version(tool.executable);
  if (found === undefined)
    fail(`${tool.name} for ${tool.purpose}: ${tool.executable} does not start (--version failed).`);
  process.stdout.write(`${tool.name} for ${tool.purpose}: ${found} (${tool.executable})\n`);
}
