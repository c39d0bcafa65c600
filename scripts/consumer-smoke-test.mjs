#!/usr/bin/env node
// The packages as a consumer gets them: packs each one as it would be published, installs the
// tarballs into a new project outside the workspace, and uses them there from ESM and CommonJS,
// through the web build of @fflkit/webhooks (its conditions and its /web subpath), under tsc,
// and through the fflkit-sandbox CLI. What the npm page shows is checked on the tarball too:
// the repository, homepage and bugs links, and every relative link of the README.
// Expects the packages built (`pnpm build`). Keeps the temporary folder when a step fails.
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = fileURLToPath(new URL('consumer-smoke', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'fflkit-consumer-'));
const tarballs = join(work, 'tarballs');
const project = join(work, 'project');
const started = performance.now();

function step(title) {
  console.log(`\n--> ${title} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

function run(command, args, options = {}) {
  return execFileSync(command, args, { cwd: project, stdio: 'inherit', encoding: 'utf8', ...options });
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function pack() {
  step('Packing every package');
  mkdirSync(tarballs);
  const packed = [];
  for (const dir of readdirSync(join(root, 'packages'))) {
    const manifest = readJson(join(root, 'packages', dir, 'package.json'));
    if (manifest.private) continue;
    const { filename } = JSON.parse(
      run('pnpm', ['pack', '--json', '--pack-destination', tarballs], {
        cwd: join(root, 'packages', dir),
        stdio: 'pipe',
      }),
    );
    const published = run('tar', ['-xOzf', filename, 'package/package.json'], { cwd: tarballs, stdio: 'pipe' });
    if (published.includes('workspace:'))
      throw new Error(`${manifest.name}: the packed package.json still has a workspace: range`);
    checkManifestLinks(JSON.parse(published), `packages/${dir}`);
    const files = run('tar', ['-tzf', filename], { cwd: tarballs, stdio: 'pipe' }).split('\n').filter(Boolean);
    checkReadmeLinks(
      manifest.name,
      files,
      run('tar', ['-xOzf', filename, 'package/README.md'], { cwd: tarballs, stdio: 'pipe' }),
    );
    console.log(`${manifest.name}: ${filename.replace(`${tarballs}/`, '')}`);
    packed.push({ name: manifest.name, filename });
  }
  return packed;
}

/**
 * The links of the npm page's sidebar: `repository` (with the package's folder), `homepage` and
 * `bugs`, all on the repository that the root package.json names, the one place to change them.
 */
function checkManifestLinks(manifest, directory) {
  const { repository, bugs } = readJson(join(root, 'package.json'));
  const web = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  const expected = {
    repository: { type: 'git', url: repository.url, directory },
    homepage: `${web}/tree/main/${directory}#readme`,
    bugs: { url: bugs.url },
  };
  const actual = { repository: manifest.repository, homepage: manifest.homepage, bugs: manifest.bugs };
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(
      `${manifest.name}: the package.json links are ${JSON.stringify(actual)}; write ${JSON.stringify(expected)}`,
    );
  }
}

/**
 * Fails on a README link that breaks on the npm page: a relative link to a file the tarball does
 * not hold (a sibling package, the repository's openapi/ folder, a test config), or an anchor
 * that no heading of the README makes. Code blocks and code spans hold no links.
 */
function checkReadmeLinks(name, files, readme) {
  const prose = readme.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]),
    ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1]),
    ...[...prose.matchAll(/\s(?:href|src)="([^"]+)"/g)].map((match) => match[1]),
  ];
  const anchors = headingAnchors(readme);
  const broken = targets.filter((target) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return false;
    if (target.startsWith('#')) return !anchors.has(decodeURIComponent(target.slice(1)));
    const path = posix
      .normalize(posix.join('package', decodeURIComponent(target.replace(/[?#].*$/, ''))))
      .replace(/\/$/, '');
    return !files.some((file) => file === path || file.startsWith(`${path}/`));
  });
  if (broken.length > 0) {
    throw new Error(
      `${name}: the README links to what its tarball does not hold: ${broken.join(', ')}; link another package's npm page, an absolute URL of the repository, or a heading of the README`,
    );
  }
}

/** The anchors that headings make on the npm page and on GitHub: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchors(readme) {
  const anchors = new Set();
  const text = readme.replace(/^```[\s\S]*?^```$/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n += 1) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

function install(packed) {
  step('Installing the tarballs into a new project');
  mkdirSync(project);
  const { devDependencies } = readJson(join(root, 'package.json'));
  const { peerDependencies } = readJson(join(root, 'packages/msw/package.json'));
  const local = Object.fromEntries(packed.map(({ name, filename }) => [name, `file:${filename}`]));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify(
      {
        name: 'fflkit-consumer',
        private: true,
        dependencies: {
          ...local,
          msw: peerDependencies.msw,
          typescript: devDependencies.typescript,
          '@types/node': devDependencies['@types/node'],
        },
        // The packages depend on each other at versions the registry does not have: take the tarballs.
        overrides: Object.fromEntries(packed.map(({ name }) => [name, `$${name}`])),
      },
      null,
      2,
    ),
  );
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']);
  const lock = readJson(join(project, 'package-lock.json'));
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.includes('node_modules/@fflkit/')) continue;
    if (path.lastIndexOf('node_modules/') !== 0 || !entry.resolved?.startsWith('file:')) {
      throw new Error(`${path} was installed from ${entry.resolved}, not from the top-level tarball`);
    }
  }
  cpSync(fixtures, project, { recursive: true });
  copyFileSync(join(project, 'types.mts'), join(project, 'types.cts'));
}

async function runCli() {
  step('Running the fflkit-sandbox CLI');
  const bin = join(project, 'node_modules/.bin/fflkit-sandbox');
  const env = { ...process.env, FFLKIT_SANDBOX_COMPILE_CACHE: join(work, 'compile-cache') };
  if (!run(bin, ['--help'], { stdio: 'pipe', env }).includes('Usage: fflkit-sandbox'))
    throw new Error('--help printed no usage');
  const cli = spawn(bin, ['--memory', '--port', '0', '--quiet'], {
    cwd: project,
    env,
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
    const { mcpTools } = await import(pathToFileURL(join(project, 'check-packages.mjs')).href);
    if (!(await mcpTools(new URL(apiUrl).origin, token)).includes('"name":"create_receipt"'))
      throw new Error('the CLI did not list the MCP tools at /_sandbox/mcp');
    console.log(`The CLI served ${apiUrl}, answered GET /books with 200 and listed its MCP tools.`);
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
  install(pack());
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
    `\nThe packed packages install and work in a new project (${((performance.now() - started) / 1000).toFixed(1)} s).`,
  );
} catch (error) {
  console.error(`\n${error instanceof Error ? error.message : error}\nKept ${work} for inspection.`);
  process.exitCode = 1;
}
