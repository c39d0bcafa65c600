import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url);
let bin: string;

beforeEach(async () => {
  bin = await mkdtemp(join(tmpdir(), 'fflkit-engine-'));
});

afterEach(async () => {
  await rm(bin, { recursive: true, force: true });
});

/** A stand-in for `command` in the test's PATH: it prints its arguments and exits with `code`. */
async function fake(command: string, code = 0): Promise<void> {
  await writeFile(join(bin, command), `#!/bin/sh\necho "${command} $*"\nexit ${code}\n`);
  await chmod(join(bin, command), 0o755);
}

/**
 * Picks the engine with only the test's folder on PATH (and the sbin folders the engine looks in
 * besides), runs `version` with it and prints what the engine is and the settings podman gets.
 */
function pick(env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = `import { readFileSync, existsSync } from 'node:fs';
import { containerEngine } from './scripts/container/engine.mjs';
const engine = containerEngine();
const settings = engine.env.CONTAINERS_CONF;
console.log(JSON.stringify({ name: engine.name, version: engine.run(['version']).stdout.trim(), settings: settings && readFileSync(settings, 'utf8') }));
engine.dispose();
console.log(JSON.stringify({ removed: settings === undefined || !existsSync(settings) }));`;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { cwd: root, env: { HOME: bin, PATH: bin, ...env } },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });
}

describe('scripts/container/engine.mjs: containerEngine()', () => {
  it('prefers podman, and gives it settings of its own in a temporary CONTAINERS_CONF, removed at the end', async () => {
    await fake('podman');
    await fake('docker');
    const outcome = await pick();
    const [chosen, disposed] = outcome.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(chosen.name).toBe('podman');
    expect(chosen.version).toBe('podman version');
    expect(chosen.settings).toContain('[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\n');
    expect(disposed).toEqual({ removed: true });
  });

  it('takes docker when podman is missing, and FFLKIT_CONTAINER_ENGINE when set', async () => {
    await fake('docker');
    const [chosen] = (await pick()).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(chosen).toEqual({ name: 'docker', version: 'docker version', settings: undefined });
    await fake('podman');
    const [asked] = (await pick({ FFLKIT_CONTAINER_ENGINE: 'docker' })).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(asked.name).toBe('docker');
  });

  it('says what to do when neither is installed, when docker’s daemon does not answer, and for another engine', async () => {
    expect((await pick()).stderr).toContain(
      'engine: neither podman nor docker is installed: install one (Debian: apt-get install -y podman runc)',
    );
    await fake('docker', 1);
    expect((await pick()).stderr).toContain('engine: docker is installed but its daemon does not answer');
    expect((await pick({ FFLKIT_CONTAINER_ENGINE: 'rkt' })).stderr).toContain(
      'engine: FFLKIT_CONTAINER_ENGINE must be podman or docker, not "rkt"',
    );
  });
});
