#!/usr/bin/env node
// CI's proof that the README's first command works on a machine with Node and npm alone: a root
// file system of this machine's Node 20 and npm on the smallest base of a Linux system (the C
// library, a shell and the few commands that npm's and pnpm's shims call: `env`, `dirname`,
// `uname`, `sed`...), the CA certificates and the machine's global npm configuration (its
// `cafile`), and nothing else (no pnpm, no git, no Chromium, no curl), run by podman as a user that
// is not root, with a clone of the repository in its home. It runs the README's start command
// there as the README gives it (scripts/readme-commands.mjs) until the sandbox answers an
// authenticated request, and prints the evidence: the machine, the command's output, the answer.
//
// The clone is made here, by `git clone` of this repository's committed state (what a user
// clones: no node_modules, no build output, nothing ignored or uncommitted), and copied into the
// image: the machine has no git, as the point is a machine with Node and npm alone.
//   node scripts/container/fresh-machine.mjs
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeCommands } from '../readme-commands.mjs';
import { containerEngine } from './engine.mjs';
import { copyCaCertificates, copyCLibrary, copyExecutable, copyFile, copyFolder, writeSystemFiles } from './rootfs.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const USER = { name: 'dev', id: 1000, home: '/home/dev' };
const WAIT_MS = 15 * 60_000;
const name = `fflkit-fresh-machine-${process.pid}`;
const image = `localhost/${name}`;
const context = mkdtempSync(join(tmpdir(), 'fflkit-fresh-machine-'));
const engine = containerEngine({ ...process.env, FFLKIT_CONTAINER_ENGINE: 'podman' });

const podman = (...args) => engine.run(args).stdout.trim();

/** The folder npm was installed in, and its global configuration file (`$PREFIX/etc/npmrc`). */
function npmOfThisMachine() {
  const npm = execFileSync('npm', ['root', '--global'], { encoding: 'utf8' }).trim();
  const globalConfig = execFileSync('npm', ['config', 'get', 'globalconfig'], { encoding: 'utf8' }).trim();
  return { folder: join(npm, 'npm'), globalConfig };
}

/**
 * The base every Unix machine has, as little of it as npm and pnpm need: the shell their scripts
 * run in, `env` (the `#!/usr/bin/env node` of every package executable) and what pnpm's shims of
 * those executables call, with a few everyday commands beside.
 */
const BASE_COMMANDS = [
  'sh',
  'env',
  'dirname',
  'basename',
  'uname',
  'sed',
  'cat',
  'ls',
  'mkdir',
  'rm',
  'cp',
  'mv',
  'grep',
  'id',
];

/** Node, npm and the base at the paths of a Debian machine, the CA certificates, the npm configuration, a user. */
function makeRootfs(rootfs) {
  mkdirSync(join(rootfs, 'usr/bin'), { recursive: true });
  symlinkSync('usr/bin', join(rootfs, 'bin'));
  copyExecutable(rootfs, process.execPath, '/usr/bin/node');
  copyCLibrary(rootfs);
  for (const command of BASE_COMMANDS) {
    const path = execFileSync('/bin/sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim();
    copyExecutable(rootfs, path, `/usr/bin/${command}`);
  }
  const npm = npmOfThisMachine();
  copyFolder(rootfs, npm.folder, '/usr/lib/node_modules/npm');
  for (const command of ['npm', 'npx']) {
    symlinkSync(`../lib/node_modules/npm/bin/${command}-cli.js`, join(rootfs, 'usr/bin', command));
  }
  // npm reads its global configuration at $PREFIX/etc/npmrc, the prefix being /usr for /usr/bin/node.
  try {
    copyFile(rootfs, npm.globalConfig, '/usr/etc/npmrc');
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  const certificates = copyCaCertificates(rootfs);
  writeSystemFiles(rootfs, USER);
  return { certificates };
}

function containerfile({ certificates }) {
  return `FROM scratch
COPY rootfs/ /
COPY --chown=${USER.id}:${USER.id} home/ ${USER.home}/
USER ${USER.id}:${USER.id}
WORKDIR ${USER.home}/fflkit
ENV HOME=${USER.home} PATH=/usr/local/bin:/usr/bin:/bin NODE_EXTRA_CA_CERTS=${certificates}
`;
}

/** What the machine has, run by its own shell: Node and npm, and no pnpm, git or Chromium. */
function describeMachine() {
  return podman(
    'run',
    '--rm',
    image,
    '/bin/sh',
    '-c',
    'echo "node $(node --version), npm $(npm --version), user $(id -u), HOME $HOME"; for c in pnpm corepack git chromium curl; do command -v $c >/dev/null && echo "$c: present" || echo "$c: absent"; done; echo /usr/bin: $(ls /usr/bin)',
  );
}

async function main() {
  const { start } = readmeCommands();
  const rootfs = join(context, 'rootfs');
  const machine = makeRootfs(rootfs);
  mkdirSync(join(context, 'home'));
  execFileSync('git', [
    'clone',
    '--quiet',
    '--no-local',
    '--depth',
    '1',
    `file://${root}`,
    join(context, 'home/fflkit'),
  ]);
  const commit = execFileSync('git', ['-C', join(context, 'home/fflkit'), 'log', '-1', '--format=%h %s'], {
    encoding: 'utf8',
  }).trim();
  writeFileSync(join(context, 'Containerfile'), containerfile(machine));
  podman('build', '--quiet', '--tag', image, '--file', join(context, 'Containerfile'), context);
  console.log(`The machine (an image FROM scratch): ${describeMachine().replace(/\n/g, '; ')}`);
  console.log(`The clone: ${commit}`);
  console.log(`The README's first command: ${start}\n`);

  const since = performance.now();
  podman('run', '--detach', '--name', name, image, '/bin/sh', '-c', start);
  let token;
  for (;;) {
    const logs = engine.run(['logs', name], { allowFailure: true });
    token = `${logs.stdout}${logs.stderr}`.match(/\bsbx_[A-Za-z0-9]+/)?.[0];
    if (token !== undefined) break;
    if (podman('inspect', '--format', '{{.State.Running}}', name) !== 'true') {
      throw new Error(
        `the command ended before the sandbox served (exit ${podman('inspect', '--format', '{{.State.ExitCode}}', name)})`,
      );
    }
    if (performance.now() - since > WAIT_MS)
      throw new Error(`the sandbox did not serve within ${WAIT_MS / 60_000} minutes`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  // The sandbox listens on the machine's own 127.0.0.1:4010: asked from inside it, as its user would.
  const request = `fetch('http://127.0.0.1:4010/rest/v1/books', { headers: { authorization: 'Bearer ${token}' } })
    .then(async (r) => { console.log(r.status, await r.text()); process.exitCode = r.status === 200 ? 0 : 1; })`;
  const answer = engine.run(['exec', name, 'node', '-e', request], { allowFailure: true });
  const seconds = ((performance.now() - since) / 1000).toFixed(0);
  console.log(`The command's output, ${seconds} s after it started (pnpm's progress lines left out):`);
  console.log(printedOutput());
  console.log(`\nGET http://127.0.0.1:4010/rest/v1/books with the printed token, from inside the machine:`);
  console.log(`  ${answer.stdout.trim() || answer.stderr.trim()}`);
  if (answer.status !== 0) throw new Error('the sandbox did not answer the authenticated request with 200');
}

function printedOutput() {
  const logs = engine.run(['logs', name], { allowFailure: true });
  return `${logs.stdout}${logs.stderr}`
    .split('\n')
    .filter((line) => !/^Progress: /.test(line) && !/^time=.*level=/.test(line))
    .map((line) => `  | ${line}`)
    .join('\n');
}

try {
  await main();
  console.log('\nThe README’s first command serves on a machine with Node and npm alone.');
} catch (error) {
  console.error(`fresh-machine: ${error.message}`);
  if (engine.run(['container', 'exists', name], { allowFailure: true }).status === 0) console.error(printedOutput());
  process.exitCode = 1;
} finally {
  engine.run(['rm', '--force', name], { allowFailure: true });
  engine.run(['rmi', '--force', image], { allowFailure: true });
  engine.dispose();
  rmSync(context, { recursive: true, force: true });
}
