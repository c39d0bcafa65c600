// Root file systems for container images built `FROM scratch` out of this machine's own files:
// an executable with the shared libraries it loads, folders copied whole, the users and groups,
// the CA certificates. No image registry is needed, and the image runs on any Linux of the same
// architecture. Used by scripts/build-image.mjs (the sandbox's image) and
// scripts/container/fresh-machine.mjs (a machine with Node and npm alone); each function takes
// the root folder being filled.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * The shared libraries that the executable `file` loads, with the dynamic loader, as `ldd` lists
 * them: absolute paths as the loader looks them up (symbolic links left unresolved). Empty for a
 * static executable; throws when `ldd` cannot read the file or a library is not found.
 */
export function sharedLibraries(file) {
  let output;
  try {
    output = execFileSync('ldd', [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const said = `${error.stdout ?? ''}${error.stderr ?? ''}`;
    if (said.includes('not a dynamic executable')) return [];
    throw new Error(
      `rootfs: ldd ${file} failed (${said.trim() || error.message}): is it an executable of this machine?`,
    );
  }
  const missing = output.split('\n').filter((line) => line.includes('=> not found'));
  if (missing.length > 0) {
    throw new Error(
      `rootfs: ${file} needs libraries this machine lacks: ${missing.map((line) => line.trim()).join('; ')}`,
    );
  }
  // `libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)`, and the loader as `/lib64/ld-linux-x86-64.so.2 (0x...)`;
  // the vDSO has no file.
  return [...output.matchAll(/(?:=>\s+|^\s*)(\/\S+)\s+\(0x[0-9a-f]+\)/gm)].map((match) => match[1]);
}

/**
 * Copies the executable `file` to `destination` under `root` (the same path by default), and
 * every shared library it loads to the path the loader looks it up at.
 */
export function copyExecutable(root, file, destination = file) {
  copyFile(root, file, destination, 0o755);
  for (const library of sharedLibraries(file)) copyFile(root, library, library, 0o755);
}

/** The shared libraries of glibc, by file name (the versioned names programs load). */
const GLIBC_LIBRARY =
  /^(?:ld-linux[\w-]*\.so\.\d+|lib(?:c|m|mvec|dl|rt|pthread|resolv|util|anl|nsl|thread_db|BrokenLocale|c_malloc_debug|nss_(?:files|dns|compat|hesiod))\.so\.\d+)$/;

/**
 * Copies this machine's whole C library (glibc), from the folder of the libc that `executable`
 * loads, to the same paths under `root`: the native addons of npm packages load parts of it
 * that Node itself does not (librt, for one).
 */
export function copyCLibrary(root, executable = process.execPath) {
  const libc = sharedLibraries(executable).find((path) => basename(path) === 'libc.so.6');
  if (libc === undefined) throw new Error(`rootfs: ${executable} does not load glibc's libc.so.6`);
  const folder = dirname(libc);
  for (const name of readdirSync(folder).filter((file) => GLIBC_LIBRARY.test(file))) {
    copyFile(root, join(folder, name), join(folder, name), 0o755);
  }
}

/** Copies the folder `from` whole to `destination` under `root`, its symbolic links as they are. */
export function copyFolder(root, from, destination = from) {
  cpSync(from, join(root, destination), { recursive: true, verbatimSymlinks: true });
}

/** Copies one file (its content, behind any symbolic link) to `destination` under `root`, with `mode`. */
export function copyFile(root, from, destination = from, mode = 0o644) {
  const target = join(root, destination);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(realpathSync(from), target);
  chmodSync(target, mode);
}

/** Writes `text` to `destination` under `root`, with `mode`. */
export function writeFile(root, destination, text, mode = 0o644) {
  const target = join(root, destination);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  chmodSync(target, mode);
}

/** Makes the folder `destination` under `root`, with `mode` (1777 for a shared temporary folder). */
export function makeFolder(root, destination, mode = 0o755) {
  const target = join(root, destination);
  mkdirSync(target, { recursive: true });
  chmodSync(target, mode);
}

/**
 * The accounts of a minimal system: root, and one user `name` with `id` as both its user and
 * group id and `home` as its home folder (made empty, to be given to the user by the image's
 * `COPY --chown`, since files are copied as the build's own user). Name resolution reads
 * /etc/hosts, then DNS.
 */
export function writeSystemFiles(root, { name, id, home }) {
  writeFile(
    root,
    '/etc/passwd',
    `root:x:0:0:root:/root:/sbin/nologin\n${name}:x:${id}:${id}:${name}:${home}:/sbin/nologin\n`,
  );
  writeFile(root, '/etc/group', `root:x:0:\n${name}:x:${id}:\n`);
  writeFile(root, '/etc/nsswitch.conf', 'passwd: files\ngroup: files\nhosts: files dns\n');
  makeFolder(root, '/tmp', 0o1777);
}

/**
 * Copies this machine's bundle of trusted CA certificates to the same path under `root`:
 * `NODE_EXTRA_CA_CERTS` when set, else Debian's `/etc/ssl/certs/ca-certificates.crt`. Returns
 * the path, for `NODE_EXTRA_CA_CERTS` in the image.
 */
export function copyCaCertificates(root, env = process.env) {
  const bundle = env.NODE_EXTRA_CA_CERTS || '/etc/ssl/certs/ca-certificates.crt';
  if (!existsSync(bundle)) {
    throw new Error(`rootfs: no CA certificates at ${bundle}: install ca-certificates or set NODE_EXTRA_CA_CERTS`);
  }
  copyFile(root, bundle);
  return bundle;
}
