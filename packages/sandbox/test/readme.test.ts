import { readFileSync } from 'node:fs';
import { REQUEST_LOG_ENTRIES } from '@fflkit/sandbox-core';
import { describe, expect, it } from 'vitest';

// What the README says of the sandbox that its code decides: the figures must be the code's.

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('the README', () => {
  it("says the console's Requests page shows as many requests as the request log keeps", () => {
    const row = readme.split('\n').find((line) => line.startsWith('| Requests |'));
    expect(row).toBeDefined();
    const counts = [...row!.matchAll(/\b(\d{1,3}(?:,\d{3})*) (?:API )?requests\b|\blast (\d{1,3}(?:,\d{3})*)\b/g)].map(
      (match) => Number((match[1] ?? match[2])!.replaceAll(',', '')),
    );
    expect(counts).toEqual([REQUEST_LOG_ENTRIES]);
  });
});
