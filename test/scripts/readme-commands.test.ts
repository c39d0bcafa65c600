import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const run = promisify(execFile);

/** What `node scripts/readme-commands.mjs which` prints: the README's command, as CI runs it. */
async function readmeCommand(which: 'start' | 'test'): Promise<string> {
  const { stdout } = await run(process.execPath, ['scripts/readme-commands.mjs', which], { cwd: root });
  return stdout.trim();
}

describe("the README's two commands", () => {
  it('run, through npx, exactly the pnpm that package.json pins, on a machine with Node and npm alone', async () => {
    const { packageManager } = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as {
      packageManager: string;
    };
    const pinned = packageManager.split('+')[0];
    expect(pinned).toMatch(/^pnpm@\d+\.\d+\.\d+$/);
    const pnpm = `npx --yes ${pinned}`;
    expect(await readmeCommand('start')).toBe(`${pnpm} install && ${pnpm} start`);
    expect(await readmeCommand('test')).toBe(`${pnpm} install && ${pnpm} test`);
  });

  it('are read from the "Two commands" section, and a README without them is an error', async () => {
    const failed = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
      import { readmeCommands } from './scripts/readme-commands.mjs';
      readmeCommands('# FFLKit\\n\\n## Two commands\\n\\n\`\`\`sh\\npnpm start\\n\`\`\`\\n');`,
      ],
      { cwd: root },
    );
    await expect(failed).rejects.toThrow('has 1 one-line sh blocks, not 2 (start, then test)');
  });
});
