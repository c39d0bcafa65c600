// The container engine of this machine, podman or docker, for the scripts that build and run
// images. Podman runs with settings of its own, in a temporary containers.conf named by
// CONTAINERS_CONF for its commands alone, so that it works where the machine's defaults cannot
// start a container and the machine's own configuration is left as it is.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * The settings podman gets: cgroups managed through the file system (crun refuses the hybrid
 * cgroups of some machines, and systemd may not run), no default ulimits (raising
 * RLIMIT_NOFILE is not permitted everywhere), and runc as the runtime where it is installed.
 */
function podmanSettings(runc) {
  const engine = ['[engine]', 'cgroup_manager = "cgroupfs"'];
  if (runc !== undefined) engine.push(`runtime = "${runc}"`);
  return `[containers]\ndefault_ulimits = []\n${engine.join('\n')}\n`;
}

/** The path of `command` on PATH (and the sbin folders, where runc lives), or `undefined`. */
export function findCommand(command, env = process.env) {
  const folders = [...(env.PATH ?? '').split(delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  return folders
    .filter((folder) => folder.startsWith('/'))
    .map((folder) => join(folder, command))
    .find((path) => existsSync(path));
}

/**
 * Picks the engine: `FFLKIT_CONTAINER_ENGINE` (`podman` or `docker`) when set, else podman when
 * installed, else docker when its daemon answers. Throws saying what to install otherwise.
 * Returns `{ name, env, run(args, options), dispose() }`: `run` runs the engine with `args`
 * and returns `{ status, stdout, stderr }` (throwing on a non-zero status unless `allowFailure`);
 * `dispose` removes the temporary settings.
 */
export function containerEngine(env = process.env) {
  const wanted = env.FFLKIT_CONTAINER_ENGINE;
  if (wanted !== undefined && wanted !== '' && wanted !== 'podman' && wanted !== 'docker') {
    throw new Error(`engine: FFLKIT_CONTAINER_ENGINE must be podman or docker, not ${JSON.stringify(wanted)}`);
  }
  const podman = findCommand('podman', env);
  const docker = findCommand('docker', env);
  const name = wanted || (podman !== undefined ? 'podman' : docker !== undefined ? 'docker' : undefined);
  if (name === undefined) {
    throw new Error(
      'engine: neither podman nor docker is installed: install one (Debian: apt-get install -y podman runc)',
    );
  }
  if ((name === 'podman' ? podman : docker) === undefined) {
    throw new Error(`engine: FFLKIT_CONTAINER_ENGINE is ${name}, which is not installed`);
  }

  let settingsDir;
  const engineEnv = { ...env };
  if (name === 'podman') {
    settingsDir = mkdtempSync(join(tmpdir(), 'fflkit-podman-'));
    writeFileSync(join(settingsDir, 'containers.conf'), podmanSettings(findCommand('runc', env)));
    engineEnv.CONTAINERS_CONF = join(settingsDir, 'containers.conf');
  }

  const engine = {
    name,
    /** The environment the engine runs with (CONTAINERS_CONF set for podman), for callers that spawn it. */
    env: engineEnv,
    run(args, { allowFailure = false, input } = {}) {
      const result = spawnSync(name, args, {
        env: engineEnv,
        encoding: 'utf8',
        input,
        maxBuffer: 64 * 1024 * 1024,
        stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      });
      if (result.error) throw new Error(`engine: ${name} ${args[0]} did not run: ${result.error.message}`);
      const outcome = { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
      if (outcome.status !== 0 && !allowFailure) {
        throw new Error(
          `engine: ${name} ${args.join(' ')} exited with ${outcome.status}:\n${(result.stderr || result.stdout).trim()}`,
        );
      }
      return outcome;
    },
    dispose() {
      if (settingsDir !== undefined) rmSync(settingsDir, { recursive: true, force: true });
    },
  };
  if (name === 'docker' && engine.run(['version', '--format', '{{.Server.Version}}'], { allowFailure: true }).status) {
    throw new Error(
      'engine: docker is installed but its daemon does not answer (docker version): start it, or install podman',
    );
  }
  return engine;
}
