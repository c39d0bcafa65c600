import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/contract';
import { conformanceTool } from '../src/tools/conformance-tool';
import { buildToolCatalog, OPERATIONS_WITHOUT_TOOLS } from '../src/tools/tool-catalog';

// The tool the sandbox adds to its own endpoint is documented with the others.
const conformance = conformanceTool(() => Promise.reject(new Error('not run')));
const tools = [...buildToolCatalog(loadContract(), { extraTools: [conformance] }).keys()].sort();
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const skill = readFileSync(new URL('../SKILL.md', import.meta.url), 'utf8');

/** The snake_case names in backticks of a text that look like tool names. */
function namesIn(text: string): string[] {
  return [...text.matchAll(/`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`/g)].map((match) => match[1]!);
}

describe('the documentation of the tools', () => {
  it("lists every tool in the README's table, and no other", () => {
    const table = readme.slice(readme.indexOf('| area | tools |'), readme.indexOf('A tool answers the JSON'));
    expect([...new Set(namesIn(table))].sort()).toEqual(tools);
  });

  it('names in the README every operation that has no tool', () => {
    for (const operationId of Object.keys(OPERATIONS_WITHOUT_TOOLS)) expect(readme).toContain(`\`${operationId}\``);
  });

  it("tells to copy the skill file into a folder named after the skill's name", () => {
    const name = /^---\nname: ([a-z0-9-]+)\n/.exec(skill)?.[1];
    expect(name).toBeDefined();
    const folders = [...readme.matchAll(/\.(?:claude|agents)\/skills\/([^/`\s]+)\//g)].map((match) => match[1]);
    expect(folders.length).toBeGreaterThan(0);
    expect(new Set(folders)).toEqual(new Set([name]));
  });

  it('names in the skill file only tools and fields that exist', () => {
    const fields = new Set([
      ...loadContract().operations.flatMap((operation) => [
        ...operation.parameters.map((parameter) => parameter.name),
        ...Object.keys((operation.body?.schema['properties'] as object | undefined) ?? {}),
      ]),
      ...Object.keys(conformance.inputSchema['properties'] as object),
    ]);
    const named = namesIn(skill);
    expect(named.filter((name) => !tools.includes(name) && !fields.has(name))).toEqual([]);
    expect(named.filter((name) => tools.includes(name)).length).toBeGreaterThan(15);
  });
});
