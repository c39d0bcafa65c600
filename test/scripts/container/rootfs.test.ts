import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url);
const run = promisify(execFile);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-rootfs-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `code` with scripts/container/rootfs.mjs imported as `rootfs`; resolves with what it printed. */
async function withRootfs(code: string): Promise<string> {
  const script = `import * as rootfs from './scripts/container/rootfs.mjs';\n${code}`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
  return stdout;
}

describe('scripts/container/rootfs.mjs', () => {
  it('copyExecutable(root, node) copies Node where asked and every library it loads where the loader looks', async () => {
    const libraries = JSON.parse(
      await withRootfs(`rootfs.copyExecutable(${JSON.stringify(dir)}, process.execPath, '/usr/local/bin/node');
console.log(JSON.stringify(rootfs.sharedLibraries(process.execPath)));`),
    ) as string[];
    expect(libraries.some((path) => /\/ld-linux[\w-]*\.so\.\d$/.test(path))).toBe(true);
    expect(libraries.some((path) => path.endsWith('/libc.so.6'))).toBe(true);
    for (const path of ['/usr/local/bin/node', ...libraries]) {
      expect(((await stat(join(dir, path))).mode & 0o777).toString(8), path).toBe('755');
    }
    expect((await stat(join(dir, '/usr/local/bin/node'))).size).toBe((await stat(process.execPath)).size);
  });

  it('copyCLibrary(root) copies the parts of glibc that Node does not load, which native addons do (librt)', async () => {
    await withRootfs(`rootfs.copyCLibrary(${JSON.stringify(dir)});`);
    const libc = (
      await withRootfs('console.log(rootfs.sharedLibraries(process.execPath).find((p) => p.endsWith("/libc.so.6")));')
    ).trim();
    const folder = libc.slice(0, libc.lastIndexOf('/'));
    await expect(stat(join(dir, folder, 'librt.so.1'))).resolves.toBeDefined();
    await expect(stat(join(dir, folder, 'libnss_dns.so.2'))).resolves.toBeDefined();
  });

  it('writeSystemFiles(root, user) writes root and the user, name resolution by files then DNS, and a /tmp for all', async () => {
    await withRootfs(`rootfs.writeSystemFiles(${JSON.stringify(dir)}, { name: 'sandbox', id: 1000, home: '/data' });`);
    expect(await readFile(join(dir, 'etc/passwd'), 'utf8')).toBe(
      'root:x:0:0:root:/root:/sbin/nologin\nsandbox:x:1000:1000:sandbox:/data:/sbin/nologin\n',
    );
    expect(await readFile(join(dir, 'etc/group'), 'utf8')).toBe('root:x:0:\nsandbox:x:1000:\n');
    expect(await readFile(join(dir, 'etc/nsswitch.conf'), 'utf8')).toContain('hosts: files dns\n');
    expect(((await stat(join(dir, 'tmp'))).mode & 0o7777).toString(8)).toBe('1777');
  });

  it('sharedLibraries(file) is an error naming the file for something ldd cannot read', async () => {
    await expect(withRootfs(`rootfs.sharedLibraries(${JSON.stringify(join(dir, 'missing'))});`)).rejects.toThrow(
      `rootfs: ldd ${join(dir, 'missing')} failed`,
    );
  });
});
