#!/usr/bin/env node
// The README's two commands, read from its "Two commands" section (its first `sh` block starts
// the sandbox, its second runs the tests), so that CI runs them as a new user reads them:
// `.ci/run` runs the test command, scripts/container/fresh-machine.mjs the start command.
//   node scripts/readme-commands.mjs start|test    prints that command
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const README = fileURLToPath(new URL('../README.md', import.meta.url));

/** `{ start, test }`: the two commands of the README's "Two commands" section, each one line. */
export function readmeCommands(text = readFileSync(README, 'utf8')) {
  const section = text.split(/^## /m).find((part) => part.startsWith('Two commands\n'));
  if (section === undefined) throw new Error('readme-commands: README.md has no "## Two commands" section');
  const blocks = [...section.matchAll(/^```sh\n([^\n]+)\n```$/gm)].map((match) => match[1].trim());
  if (blocks.length !== 2) {
    throw new Error(
      `readme-commands: the "Two commands" section of README.md has ${blocks.length} one-line sh blocks, not 2 (start, then test)`,
    );
  }
  return { start: blocks[0], test: blocks[1] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const which = process.argv[2];
  if (which !== 'start' && which !== 'test') {
    process.stderr.write('Usage: node scripts/readme-commands.mjs start|test\n');
    process.exit(2);
  }
  process.stdout.write(`${readmeCommands()[which]}\n`);
}
