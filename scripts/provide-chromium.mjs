#!/usr/bin/env node
// The Chromium of the browser tests (the MSW handlers under setupWorker, the sandbox console), as
// `pnpm test` and `pnpm test:console` provide it before anything runs: the executable named by
// CHROMIUM_PATH, else Debian's package at /usr/bin/chromium, installed with apt-get when it is
// missing and this runs as root (as CI does). Otherwise it exits 1 saying how to provide one, so
// that no browser test is skipped or fails late. Prints the version it found.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const configured = process.env.CHROMIUM_PATH || undefined;
const executable = configured ?? DEBIAN_CHROMIUM;

function fail(reason) {
  process.stderr.write(`pnpm test needs Chromium for the browser tests: ${reason}\n`);
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

if (!existsSync(executable)) {
  if (configured !== undefined) fail(`CHROMIUM_PATH is ${configured}, which does not exist.`);
  const hasAptGet = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!hasAptGet) fail('install Chromium and set CHROMIUM_PATH to its executable.');
  if (process.getuid?.() !== 0) {
    fail(`install Debian's package (sudo apt-get install chromium), or set CHROMIUM_PATH to a Chromium executable.`);
  }
  process.stdout.write("Installing Debian's chromium for the browser tests (apt-get install chromium)\n");
  const install = ['install', '-y', '--no-install-recommends', 'chromium'];
  // A machine that never fetched the package lists (a fresh container) needs them first.
  if (!aptGet(install) && !(aptGet(['update']) && aptGet(install))) {
    fail('apt-get install chromium failed (see above): install it, or set CHROMIUM_PATH to a Chromium executable.');
  }
}

// Debian's launcher can print a shell warning from its /dev/shm check: only the version counts.
const version = spawnSync(executable, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
if (version.status !== 0)
  fail(`${executable} does not start (--version exited ${version.status ?? version.error?.message}).`);
process.stdout.write(`Chromium for the browser tests: ${version.stdout.trim()} (${executable})\n`);
