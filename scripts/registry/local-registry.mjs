// The local npm registry that the packages are published to and installed from before a release:
// Verdaccio, from this folder's package.json and package-lock.json, installed here with `npm ci`
// outside the pnpm workspace, so that the workspace's install does not carry its 300 packages.
// Verdaccio 6.8.0 is pinned because 6.10 needs Node 22 and the toolkit supports Node 20; its
// verdaccio-audit asks for `node-fetch@cjs`, a dist-tag that npm no longer has, hence the override
// of node-fetch to 2.7.0, the last release of its CommonJS line.
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { devNull } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const installedStamp = join(here, 'node_modules', '.fflkit-lock-sha256');

/** Installs Verdaccio from package-lock.json, unless that very lockfile is installed already. */
function installVerdaccio() {
  const lock = createHash('sha256')
    .update(readFileSync(join(here, 'package-lock.json')))
    .digest('hex');
  if (existsSync(installedStamp) && readFileSync(installedStamp, 'utf8') === lock) return;
  execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: here,
    stdio: 'inherit',
  });
  writeFileSync(installedStamp, lock);
}

/**
 * The environment for an npm command that must see no configuration but the one given: the
 * user's ~/.npmrc (another registry, a token for npmjs, `omit-lockfile-registry-resolved`) and
 * the `npm_config_*` variables that pnpm sets for its scripts are left out.
 */
export function npmEnvironment(userconfig, extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));
  return {
    ...env,
    NPM_CONFIG_USERCONFIG: userconfig,
    NPM_CONFIG_GLOBALCONFIG: devNull,
    NPM_CONFIG_UPDATE_NOTIFIER: 'false',
    ...extra,
  };
}

/**
 * Makes `folder` a project that installs from `registry` alone: its `.npmrc` names the registry,
 * and the returned environment reads no other configuration (that file stands for the user's too).
 */
export function useRegistry(folder, registry) {
  mkdirSync(folder, { recursive: true });
  const npmrc = join(folder, '.npmrc');
  writeFileSync(npmrc, `registry=${registry}\n`);
  return npmEnvironment(npmrc);
}

/**
 * Starts the registry of config.yaml on 127.0.0.1 at a free port, its storage in `folder`, and
 * registers one user to publish with. Resolves with the registry's URL, an npm user configuration
 * holding that user's token for this registry alone, and `stop()`.
 */
export async function startLocalRegistry(folder) {
  installVerdaccio();
  mkdirSync(folder, { recursive: true });
  // The IPC channel is how the server learns that this process is gone, however it ended.
  const server = spawn(process.execPath, [join(here, 'server.mjs'), folder], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve(code ?? signal)));
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      server.kill('SIGKILL');
      reject(new Error(`the local registry did not start within 60 s:\n${output}`));
    }, 60_000);
    const read = (chunk) => {
      output += chunk;
      const found = /listening on (\S+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    server.stdout.on('data', read);
    server.stderr.on('data', read);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the local registry exited with ${code} before it listened:\n${output}`));
    });
  });
  // From here on its log (warnings and errors only) goes where this script's goes.
  server.stdout.pipe(process.stdout);
  server.stderr.pipe(process.stderr);

  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    server.kill('SIGTERM');
    if ((await Promise.race([exited, delay(10_000, 'deadline', { ref: false })])) === 'deadline') {
      server.kill('SIGKILL');
      await exited;
    }
  };
  try {
    const token = await addUser(url);
    const userconfig = join(folder, 'publish.npmrc');
    // The token is written for this registry's host and port only: no other registry gets it.
    writeFileSync(userconfig, `registry=${url}\n${url.replace(/^https?:/, '')}:_authToken=${token}\n`);
    return { url, userconfig, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Registers a user as `npm adduser` does, and returns its token. */
async function addUser(url) {
  const name = 'fflkit-release';
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: randomBytes(24).toString('base64url') }),
  });
  const body = await response.json().catch(() => ({}));
  if (response.status !== 201 || typeof body.token !== 'string') {
    throw new Error(`the local registry refused to register a user: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.token;
}
