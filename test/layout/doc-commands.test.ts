import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The commands the documentation tells a reader to run never fetch a package that is not this
// toolkit's: `npx fflkit-sandbox` without `--no` runs the command installed in the project, and
// in a folder without it downloads whatever npm holds under the name `fflkit-sandbox`, which is
// no package of this toolkit. Its packages are named in the `@fflkit` scope (`npx @fflkit/sandbox`,
// `npx @fflkit/mcp`), which only this toolkit publishes to.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function markdown(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (name === 'node_modules' || name.startsWith('.') || name === 'dist') return [];
    if (statSync(path).isDirectory()) return markdown(path);
    return name.endsWith('.md') && !path.includes('.changeset') ? [path] : [];
  });
}

/** Each `npx` command of the shell blocks of a Markdown file, with its place. */
function npxCommands(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const blocks = [...text.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
  return blocks.flatMap((block) =>
    [...block.matchAll(/\bnpx\b[^\n]*/g)].map((match) => `${relative(ROOT, file)}: ${match[0]}`),
  );
}

/** What an `npx` command runs: the package of `-p`, else its first word that is no flag. */
function ranPackage(command: string): string {
  const words = command
    .slice(command.indexOf('npx') + 3)
    .trim()
    .split(/\s+/);
  const option = words.findIndex((word) => word === '-p' || word === '--package');
  if (option !== -1) return words[option + 1] ?? '';
  return words.find((word) => !word.startsWith('-')) ?? '';
}

describe('the documentation', () => {
  it('runs a command of this toolkit through npx by its scoped package, or the one installed (npx --no)', () => {
    const commands = ['README.md', 'docs', 'packages', 'examples'].flatMap((entry) => {
      const path = join(ROOT, entry);
      return statSync(path).isDirectory() ? markdown(path).flatMap(npxCommands) : npxCommands(path);
    });
    expect(commands.length).toBeGreaterThan(0);
    const fetching = commands.filter((command) => {
      const run = ranPackage(command);
      return /^fflkit/.test(run) && !/\bnpx --no\b/.test(command);
    });
    expect(fetching).toEqual([]);
  });
});
