import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import choicesFile from '../contract/choices.json';

// Every choice the contract's prose states ("Not shown in the service's interface document; this
// contract's choice: ...") carries an `x-fflkit-choice` marker beside it, and the published list
// (`@fflkit/types/choices.json`) holds exactly the markers of the documents.

const DOCUMENTS = ['openapi.yaml', 'sandbox.yaml'] as const;

/** A choice phrase of the prose; the quotation in the info that explains the phrase is not one. */
const CHOICE_PHRASE = /this\s+contract's\s+choice/g;
const EXPLANATION = `"Not shown in the service's interface document; this contract's choice: ..."`;

interface Marked {
  readonly document: string;
  readonly pointer: string;
  readonly id: string;
}

/** Walks a document, calling `visit` with each object and its pointer (`#/components/...`). */
function walk(node: unknown, pointer: string, visit: (node: Record<string, unknown>, pointer: string) => void): void {
  if (typeof node !== 'object' || node === null) return;
  visit(node as Record<string, unknown>, pointer);
  for (const [key, value] of Object.entries(node)) {
    walk(value, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, visit);
  }
}

const documents = DOCUMENTS.map((name) => ({
  name,
  root: parse(readFileSync(new URL(`../../../openapi/${name}`, import.meta.url), 'utf8')) as unknown,
}));

/** How many choice phrases each described node holds, by `document pointer`. */
const phrases = new Map<string, number>();
/** Every marker of the documents. */
const markers: Marked[] = [];
for (const { name, root } of documents) {
  walk(root, '#', (node, pointer) => {
    const { description } = node;
    if (typeof description === 'string') {
      const count = description.replace(EXPLANATION, '').match(CHOICE_PHRASE)?.length ?? 0;
      if (count > 0) phrases.set(`${name} ${pointer}`, count);
    }
    const marked = node['x-fflkit-choice'];
    if (Array.isArray(marked)) {
      for (const marker of marked) markers.push({ document: name, pointer, id: (marker as { id: string }).id });
    }
  });
}

const { choices } = choicesFile as {
  choices: Array<{ id: string; rule: string; probe: string; how: string; document: string; where: string[] }>;
};

describe('the choices of the contract', () => {
  it('are stated in the prose at more than fifty places', () => {
    // Were the phrase reworded, every check below would pass on nothing.
    expect(phrases.size).toBeGreaterThan(50);
  });

  it('each carry a marker: a described node has at least as many markers as choice phrases', () => {
    const unmarked = [...phrases]
      .map(([place, count]) => {
        const [document, pointer] = place.split(' ') as [string, string];
        const found = markers.filter((marker) => marker.document === document && marker.pointer === pointer).length;
        return { place, phrases: count, markers: found };
      })
      .filter(({ phrases: count, markers: found }) => found < count);
    expect(unmarked).toEqual([]);
  });

  it('are marked only beside the prose that states them', () => {
    const stray = markers.filter(({ document, pointer }) => !phrases.has(`${document} ${pointer}`));
    expect(stray).toEqual([]);
  });

  it('are listed in @fflkit/types/choices.json exactly as the documents mark them (run pnpm generate)', () => {
    const listed = choices.flatMap(({ id, document, where }) => where.map((pointer) => ({ document, pointer, id })));
    const key = (marker: Marked) => `${marker.document} ${marker.pointer} ${marker.id}`;
    expect(listed.map(key).sort()).toEqual(markers.map(key).sort());
  });

  it('each have a stable id, a rule, a way to probe it and how', () => {
    for (const choice of choices) {
      expect(choice.id).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
      expect(choice.rule.length).toBeGreaterThan(10);
      expect(['read', 'write', 'traffic', 'none']).toContain(choice.probe);
      expect(choice.how.length).toBeGreaterThan(10);
    }
    expect(new Set(choices.map(({ id }) => id)).size).toBe(choices.length);
  });
});
