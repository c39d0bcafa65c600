import { conformanceTool } from '@fflkit/mcp';
import { type RunningSandbox, runConformance, startSandbox } from '@fflkit/sandbox';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { conformanceAccount } from '../../packages/sandbox/test/support/conformance-account';
import {
  DRIFTS,
  type DriftingUpstream,
  startDriftingUpstream,
} from '../../packages/sandbox/test/support/drifting-upstream';
import { answerOf, httpClient, inMemoryClient, textsOf } from './mcp-clients';

// The drift guard's conformance probe as the tool probe_conformance: against a started sandbox
// every choice it probes is confirmed; against the sandbox behind a transform that breaks the
// contract, the breaks are contradicted; the sandbox's own /_sandbox/mcp has the tool. The
// probe's waits (a receipt read again after a delay) move the account's clock, so that
// nothing sleeps.

const TOKEN = 'sbx_mcpconformance0000000000000001';
const READ_TOKEN = 'sbx_mcpconformanceread00000000001';
const FIXTURES = conformanceAccount('Conformance over MCP', TOKEN, READ_TOKEN);

interface Report {
  service: string;
  writes: boolean;
  choices: { id: string; status: string; evidence: unknown[] }[];
  violations: unknown[];
  summary: { confirmed: number; contradicted: number; notProbed: number };
}

let sandbox: RunningSandbox | undefined;
let upstream: DriftingUpstream | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  await upstream?.stop();
  await sandbox?.stop();
  client = upstream = sandbox = undefined;
});

/** A client of a server pointed at `baseUrl` whose tool probes with the account's clock for a timer. */
async function probingClient(
  running: RunningSandbox,
  baseUrl: string,
  options: { sandbox?: boolean } = {},
): Promise<Client> {
  const advance = async (ms: number): Promise<void> => {
    await fetch(`${running.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: Math.max(1, Math.ceil(ms / 1000)) }),
    });
  };
  return inMemoryClient({
    baseUrl,
    token: TOKEN,
    sandbox: options.sandbox,
    extraTools: [conformanceTool((options) => runConformance({ ...options, wait: advance }))],
  });
}

function ids(report: Report, status: string): string[] {
  return report.choices.filter((choice) => choice.status === status).map((choice) => choice.id);
}

describe('probe_conformance', { timeout: 60_000 }, () => {
  it('confirms every choice it probes against the sandbox, the probes that write included', async () => {
    sandbox = await startSandbox({ fixtures: FIXTURES });
    client = await probingClient(sandbox, sandbox.apiUrl);
    const result = await client.callTool({
      name: 'probe_conformance',
      arguments: { base_url: sandbox.apiUrl, read_token: READ_TOKEN, allow_writes: true },
    });

    const report = answerOf<Report>(result);
    expect(report.writes).toBe(true);
    expect(ids(report, 'contradicted')).toEqual([]);
    expect(report.violations).toEqual([]);
    expect(report.summary.confirmed).toBe(ids(report, 'confirmed').length);
    // The probes that write reached their choices: record numbering, deletion, read-after-write.
    expect(ids(report, 'confirmed')).toEqual(
      expect.arrayContaining(['receipts.delete', 'receipts.visible-at-once', 'errors.forbidden-message']),
    );
    for (const choice of report.choices.filter((entry) => entry.status === 'confirmed')) {
      expect(choice.evidence.length).toBeGreaterThan(0);
    }
    expect(textsOf(result)[1]).toMatch(/^\d+ choices confirmed, none contradicted, \d+ not probed/);
    // Neither token shows, though every request of the run carried one.
    expect(textsOf(result).join('\n')).not.toContain(TOKEN);
    expect(textsOf(result).join('\n')).not.toContain(READ_TOKEN);
  });

  it('contradicts each break of a drifting service', async () => {
    sandbox = await startSandbox({ fixtures: FIXTURES });
    upstream = await startDriftingUpstream(sandbox.url, DRIFTS);
    client = await probingClient(sandbox, `${upstream.url}/rest/v1`);
    const result = await client.callTool({
      name: 'probe_conformance',
      arguments: { base_url: `${upstream.url}/rest/v1`, read_token: READ_TOKEN, allow_writes: true },
    });

    const report = answerOf<Report>(result);
    expect(ids(report, 'contradicted')).toEqual([
      'errors.body',
      'errors.not-found-message',
      'pagination.envelope',
      'pagination.meta',
      'pagination.per-page',
      'rate-limit.headers',
      'receipts.delete',
      'receipts.resource',
      'receipts.visible-at-once',
      'webhooks.deleted-data',
    ]);
    expect(textsOf(result)[1]).toMatch(/^10 choices contradicted \(errors\.body, errors\.not-found-message, /);
    expect(textsOf(result).join('\n')).not.toContain(TOKEN);
    expect(textsOf(result).join('\n')).not.toContain(READ_TOKEN);
  });

  it('writes nothing where the session may not write', async () => {
    sandbox = await startSandbox({ fixtures: FIXTURES });
    client = await probingClient(sandbox, sandbox.apiUrl, { sandbox: false });
    const exported = async () =>
      (await fetch(`${sandbox!.url}/_sandbox/fixtures`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const before = await exported();

    const refused = await client.callTool({
      name: 'probe_conformance',
      arguments: { base_url: sandbox.apiUrl, allow_writes: true },
    });
    expect(refused.isError).toBe(true);
    expect(textsOf(refused)[0]).toMatch(/^\[@fflkit\/mcp\] probe_conformance ran nothing: allow_writes needs/);
    const readOnly = answerOf<Report>(
      await client.callTool({ name: 'probe_conformance', arguments: { base_url: sandbox.apiUrl } }),
    );
    expect(readOnly.writes).toBe(false);
    expect(ids(readOnly, 'contradicted')).toEqual([]);
    expect(await exported()).toBe(before);
  });

  it("is a tool of the sandbox's /_sandbox/mcp, which may write", async () => {
    sandbox = await startSandbox({ fixtures: FIXTURES });
    client = await httpClient(sandbox.url, TOKEN);
    const tool = (await client.listTools()).tools.find((entry) => entry.name === 'probe_conformance');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    const result = await client.callTool({
      name: 'probe_conformance',
      arguments: { base_url: 'https://logbook.example.com/rest/v1' },
    });
    expect(result.isError).toBe(true);
    expect(textsOf(result)[0]).toContain(`probes the service this session works with, ${new URL(sandbox.url).origin}`);
  });
});
