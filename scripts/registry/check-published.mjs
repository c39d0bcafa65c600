// Checks each package as the registry serves it, as npm would install it: its manifest (no
// `workspace:`, `file:` or `link:` range left, the toolkit's packages at the versions published
// beside it, public access, the npm page's links) and its tarball (the README, LICENSE and
// CHANGELOG, and every relative link of the README resolving inside the tarball).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];
/** What every tarball holds besides its code: the npm page, the license and the release notes. */
const SHIPPED = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];

/** The registry's document of a package (every version and its dist-tags). */
async function packument(registry, name) {
  const response = await fetch(new URL(name.replace('/', '%2f'), registry), {
    headers: { accept: 'application/json' },
  });
  if (response.status !== 200) throw new Error(`${name}: the registry answered ${response.status} for its document`);
  return response.json();
}

/**
 * Checks every package of `published` (`{ name, version, directory }`, its folder in the
 * repository) on `registry`: throws on the first
 * fault with what to change. Logs one line per package.
 */
export async function checkPublished(registry, published) {
  const versions = new Map(published.map(({ name, version }) => [name, version]));
  const folder = mkdtempSync(join(tmpdir(), 'fflkit-published-'));
  try {
    for (const { name, version, directory } of published) {
      const document = await packument(registry, name);
      if (document['dist-tags']?.latest !== version)
        throw new Error(
          `${name}: the latest tag is ${document['dist-tags']?.latest}, not the version published, ${version}`,
        );
      const manifest = document.versions?.[version];
      if (manifest === undefined) throw new Error(`${name}@${version} is not on the registry`);
      checkDependencies(manifest, versions);
      if (manifest.publishConfig?.access !== 'public')
        throw new Error(`${name}: the published package.json has no "publishConfig": {"access": "public"}`);
      checkManifestLinks(manifest, directory);

      const tarball = join(folder, `${name.replace('/', '-')}.tgz`);
      const response = await fetch(manifest.dist.tarball);
      if (response.status !== 200) throw new Error(`${name}: its tarball answered ${response.status}`);
      writeFileSync(tarball, Buffer.from(await response.arrayBuffer()));
      const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
      const missing = SHIPPED.filter((file) => !files.includes(`package/${file}`));
      if (missing.length > 0)
        throw new Error(`${name}: the tarball lacks ${missing.join(', ')}; add it to "files" in its package.json`);
      const read = (file) => execFileSync('tar', ['-xOzf', tarball, `package/${file}`], { encoding: 'utf8' });
      if (!read('CHANGELOG.md').includes(`## ${version}\n`))
        throw new Error(`${name}: CHANGELOG.md has no heading for ${version}`);
      checkReadmeLinks(name, files, read('README.md'));
      console.log(`${name}@${version}: ${files.length} files, its manifest and README links checked`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * No range that only the workspace understands is left, and each of the toolkit's packages is
 * asked for at the version published with it.
 */
function checkDependencies(manifest, versions) {
  for (const field of DEPENDENCY_FIELDS) {
    for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
      if (/^(workspace|file|link|portal):/.test(range))
        throw new Error(`${manifest.name}: the published ${field} ask for ${dependency}@${range}`);
      const published = versions.get(dependency);
      if (field !== 'devDependencies' && published !== undefined && range.replace(/^[\^~]/, '') !== published) {
        throw new Error(
          `${manifest.name}: the published ${field} ask for ${dependency}@${range}, not the version published with it, ${published}`,
        );
      }
    }
  }
}

/**
 * The links of the npm page's sidebar: `repository` (with the package's folder), `homepage` and
 * `bugs`, all on the repository that the root package.json names, the one place to change them.
 */
function checkManifestLinks(manifest, directory) {
  const { repository, bugs } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
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
