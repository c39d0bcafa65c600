// Publishes every public package of the workspace to a registry as a release publishes it to npm
// (`changeset version`, `pnpm build`, `changeset publish`, which runs `pnpm publish` and so
// replaces the `workspace:` ranges), at a snapshot version: `<next version>-ci-<date and time>`.
// It works on a copy of the working tree (uncommitted changes included), so that the versions,
// changelogs and builds it writes never reach the developer's tree.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmEnvironment } from './local-registry.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The changeset tag of the snapshot versions. */
const SNAPSHOT_TAG = 'ci';

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function writeJson(path, value) {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** The files git would commit: tracked ones as they are now, and new ones that are not ignored. */
function copyWorkingTree(destination) {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(root, file)));
  for (const file of files) cpSync(join(root, file), join(destination, file), { verbatimSymlinks: true });
}

/** The workspace's packages that are published: every one not marked private, wherever it lives. */
function publicPackages(workspace) {
  const listed = JSON.parse(
    execFileSync('pnpm', ['ls', '--recursive', '--depth', '-1', '--json'], { cwd: workspace, encoding: 'utf8' }),
  );
  return listed
    .filter((entry) => entry.private !== true)
    .map((entry) => ({ name: entry.name, dir: entry.path, directory: relative(workspace, entry.path) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A release publishes with public access and npm provenance: each package says so itself, so that
 * a publish from anywhere else than the release workflow fails instead of going out unattested.
 */
function checkPublishConfig(packages) {
  for (const { name, dir } of packages) {
    const { publishConfig } = readJson(join(dir, 'package.json'));
    if (publishConfig?.access !== 'public' || publishConfig?.provenance !== true) {
      throw new Error(
        `${name}: package.json must have "publishConfig": {"access": "public", "provenance": true}; it has ${JSON.stringify(publishConfig)}`,
      );
    }
  }
}

/**
 * Versions every public package with changesets as a snapshot: the pending changesets plus one
 * patch for each package, so that every package gets a snapshot version, also one with no
 * pending change (after a release), and none keeps a version that npm may already have.
 */
function version(workspace, packages) {
  writeFileSync(
    join(workspace, '.changeset', 'local-registry-snapshot.md'),
    `---\n${packages.map(({ name }) => `'${name}': patch`).join('\n')}\n---\n\nSnapshot for the local registry.\n`,
  );
  execFileSync('pnpm', ['exec', 'changeset', 'version', '--snapshot', SNAPSHOT_TAG], {
    cwd: workspace,
    stdio: 'inherit',
  });
  return packages.map((pkg) => {
    const { version } = readJson(join(pkg.dir, 'package.json'));
    if (!new RegExp(`^\\d+\\.\\d+\\.\\d+-${SNAPSHOT_TAG}-\\d{14}$`).test(version) || version.startsWith('0.0.0-')) {
      throw new Error(
        `${pkg.name}: changeset version --snapshot gave ${version}, not <next version>-${SNAPSHOT_TAG}-<date and time> (check "snapshot" in .changeset/config.json)`,
      );
    }
    return { ...pkg, version };
  });
}

/**
 * npm cannot attest provenance outside a CI provider it trusts (GitHub Actions, GitLab CI), and a
 * `publishConfig` wins over the environment: on the copy, and only for this registry, each
 * package's `provenance` is taken out. It is the one difference from a release's manifests.
 */
function withoutProvenance(packages) {
  for (const { dir } of packages) {
    const path = join(dir, 'package.json');
    const manifest = readJson(path);
    delete manifest.publishConfig.provenance;
    writeJson(path, manifest);
  }
}

/**
 * Copies the working tree into `workspace`, versions, builds and publishes every public package
 * to `registry` with the user configuration `userconfig` (its token). Returns the packages
 * published: `{ name, version, dir, directory }`, `dir` in the copy, `directory` relative to it.
 */
export function publishSnapshot({ workspace, registry, userconfig, step }) {
  step(`Copying the working tree to ${workspace} and installing it (pnpm install --frozen-lockfile)`);
  copyWorkingTree(workspace);
  execFileSync('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--reporter=silent'], {
    cwd: workspace,
    stdio: 'inherit',
  });
  const listed = publicPackages(workspace);
  checkPublishConfig(listed);

  step(`Versioning ${listed.length} packages as a snapshot (changeset version --snapshot ${SNAPSHOT_TAG})`);
  const packages = version(workspace, listed);
  for (const { name, version: v, directory } of packages) console.log(`${name}@${v} (${directory})`);

  step('Building the packages at their snapshot versions (pnpm build)');
  execFileSync('pnpm', ['build'], { cwd: workspace, stdio: ['ignore', 'ignore', 'inherit'] });

  step(`Publishing them to ${registry} (changeset publish, without provenance: see withoutProvenance)`);
  withoutProvenance(packages);
  // changeset publish reads the registry from npm_config_registry (else it publishes to npmjs);
  // the token in `userconfig` is for this registry's host alone.
  execFileSync('pnpm', ['exec', 'changeset', 'publish', '--no-git-tag'], {
    cwd: workspace,
    stdio: 'inherit',
    env: npmEnvironment(userconfig, { npm_config_registry: registry }),
  });
  return packages;
}
