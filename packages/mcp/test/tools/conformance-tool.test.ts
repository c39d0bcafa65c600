import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConformanceProbeOptions, conformanceTool } from '../../src/index';
import { connectClient, fakeFetch, json, SANDBOX_HEALTH, textsOf } from '../support/fake-server';

// probe_conformance over a probe that records what it was handed and answers a report of its
// own: the write guard, the annotations, the arguments, and what its output never shows.

const SERVICE = 'https://logbook.example.com/rest/v1';
// Tokens of a real service, not of the sandbox's shape: only the scrubbing of the session and of
// the call's own arguments keeps them out of the output.
const TOKEN = 'live-token-conformance-0001';
const READ_TOKEN = 'live-read-token-conformance-0002';

const REPORT = {
  service: SERVICE,
  run: '20260101T000000Z-abcdef',
  writes: false,
  choices: [
    { id: 'pagination.envelope', status: 'confirmed', rule: 'Lists answer data and meta.', evidence: [] },
    {
      id: 'errors.body',
      status: 'contradicted',
      rule: 'Errors answer message.',
      // A service that echoes what it was sent, credentials included.
      evidence: [{ request: 'GET /receipts/0', answer: { status: 404, body: `${TOKEN} ${READ_TOKEN}` } }],
    },
  ],
  violations: [],
  summary: { confirmed: 1, contradicted: 1, notProbed: 0 },
  notes: [],
};

const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A client whose server's base URL is a sandbox or not, and the probe's calls. */
async function connect(options: { sandbox: boolean; allowWrites?: boolean; token?: string | null }) {
  const probed: ConformanceProbeOptions[] = [];
  const { fetch } = fakeFetch((request) => {
    if (request.url.pathname === '/_sandbox/health')
      return options.sandbox ? json(200, SANDBOX_HEALTH) : json(404, { message: 'Not Found' });
    return undefined;
  });
  const client = await connectClient({
    baseUrl: SERVICE,
    token: options.token === null ? undefined : (options.token ?? TOKEN),
    fetch,
    allowWrites: options.allowWrites,
    extraTools: [
      conformanceTool(async (given) => {
        probed.push(given);
        return { ...REPORT, writes: given.allowWrites };
      }),
    ],
  });
  clients.push(client);
  return { client, probed };
}

describe('probe_conformance', () => {
  it('is listed read-only and open-world where the session may not write', async () => {
    const { client } = await connect({ sandbox: false });
    const tool = (await client.listTools()).tools.find((entry) => entry.name === 'probe_conformance');
    expect(tool?.annotations).toEqual({
      title: 'Probe the conformance of a service',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(tool?.inputSchema.required).toEqual(['base_url']);
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(['base_url', 'read_token', 'book', 'allow_writes']);
  });

  it('is listed as a tool that writes where the session may write: a sandbox, or --allow-writes', async () => {
    for (const options of [{ sandbox: true }, { sandbox: false, allowWrites: true }]) {
      const { client } = await connect(options);
      const tool = (await client.listTools()).tools.find((entry) => entry.name === 'probe_conformance');
      expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    }
  });

  it('refuses allow_writes where the session may not write, running nothing', async () => {
    const { client, probed } = await connect({ sandbox: false });
    const result = await client.callTool({
      name: 'probe_conformance',
      arguments: { base_url: SERVICE, allow_writes: true },
    });
    expect(result.isError).toBe(true);
    expect(textsOf(result)[0]).toBe(
      "[@fflkit/mcp] probe_conformance ran nothing: allow_writes needs a session that may write, and https://logbook.example.com/rest/v1 is not an FFLKit sandbox. Call it without allow_writes for the read-only probes, or start fflkit-mcp with --allow-writes and a token of the service's own sandbox.",
    );
    expect(probed).toEqual([]);
  });

  it('runs the read-only probes unless the call sets allow_writes, with the session token and its base URL', async () => {
    const { client, probed } = await connect({ sandbox: true });
    await client.callTool({ name: 'probe_conformance', arguments: { base_url: SERVICE } });
    await client.callTool({
      name: 'probe_conformance',
      arguments: { base_url: `${SERVICE}/`, allow_writes: true, book: ' Range ', read_token: READ_TOKEN },
    });
    expect(probed.map(({ fetch: _fetch, ...rest }) => rest)).toEqual([
      { baseUrl: SERVICE, token: TOKEN, readToken: undefined, allowWrites: false, book: undefined },
      { baseUrl: SERVICE, token: TOKEN, readToken: READ_TOKEN, allowWrites: true, book: 'Range' },
    ]);
    const started = await connect({ sandbox: false, allowWrites: true });
    await started.client.callTool({ name: 'probe_conformance', arguments: { base_url: SERVICE, allow_writes: true } });
    expect(started.probed.map((given) => given.allowWrites)).toEqual([true]);
  });

  it("answers the report as JSON and a summary, without the session's token or the read-only token", async () => {
    const { client } = await connect({ sandbox: false });
    const result = await client.callTool({
      name: 'probe_conformance',
      arguments: { base_url: SERVICE, read_token: READ_TOKEN },
    });
    expect(result.isError).toBe(false);
    const [report, summary] = textsOf(result);
    expect(JSON.parse(report!)).toMatchObject({ summary: REPORT.summary, choices: [{ status: 'confirmed' }, {}] });
    expect(summary).toBe(
      '1 choices contradicted (errors.body): their evidence shows what the service did; 1 confirmed, 0 not probed.',
    );
    expect(report).toContain('"body":"[redacted] [redacted]"');
    expect(textsOf(result).join('\n')).not.toMatch(/live-(read-)?token/);
  });

  it("sends the probe's requests without following a redirect, which would carry the token elsewhere", async () => {
    const redirects: (RequestRedirect | undefined)[] = [];
    const client = await connectClient({
      baseUrl: SERVICE,
      token: TOKEN,
      sandbox: false,
      fetch: async (_input, init) => {
        redirects.push(init?.redirect);
        return json(200, {});
      },
      extraTools: [
        conformanceTool(async (given) => {
          await given.fetch(`${SERVICE}/books`, { headers: { authorization: `Bearer ${given.token}` } });
          return REPORT;
        }),
      ],
    });
    clients.push(client);
    await client.callTool({ name: 'probe_conformance', arguments: { base_url: SERVICE } });
    expect(redirects).toEqual(['manual']);
  });

  it('refuses what it cannot take, saying what to give', async () => {
    const { client, probed } = await connect({ sandbox: true });
    const refusals = [
      [{}, /^\[@fflkit\/mcp\] probe_conformance probes the service this session works with, https:\/\/logbook/],
      [{ base_url: 'https://other.example.com/rest/v1' }, /pass base_url "https:\/\/logbook\.example\.com\/rest\/v1"/],
      [{ base_url: 'not a url' }, /pass base_url/],
      [{ base_url: SERVICE, token: TOKEN }, /takes only base_url, read_token, book, allow_writes; not token\./],
      [{ base_url: SERVICE, allow_writes: 'yes' }, /needs allow_writes as true or false/],
      [{ base_url: SERVICE, read_token: ' ' }, /needs read_token as a non-empty string/],
      [
        { base_url: SERVICE, book: 'Range' },
        /book names where the probes that write put their receipts; set allow_writes too/,
      ],
    ] as const;
    for (const [args, message] of refusals) {
      const result = await client.callTool({ name: 'probe_conformance', arguments: args });
      expect(result.isError).toBe(true);
      expect(textsOf(result)[0]).toMatch(message);
    }
    expect(probed).toEqual([]);
  });

  it('needs a token, and says how to give one', async () => {
    const { client, probed } = await connect({ sandbox: true, token: null });
    const result = await client.callTool({ name: 'probe_conformance', arguments: { base_url: SERVICE } });
    expect(textsOf(result)[0]).toMatch(/this session has none: start fflkit-mcp with FFLKIT_TOKEN/);
    expect(probed).toEqual([]);
  });

  it('answers a probe that stops as a tool error, without the tokens', async () => {
    const client = await connectClient({
      baseUrl: SERVICE,
      token: TOKEN,
      sandbox: false,
      extraTools: [
        conformanceTool(async () => {
          throw new Error(`[@fflkit/sandbox] no answer from ${SERVICE} (token ${TOKEN}, read ${READ_TOKEN})`);
        }),
      ],
    });
    clients.push(client);
    const result = await client.callTool({
      name: 'probe_conformance',
      arguments: { base_url: SERVICE, read_token: READ_TOKEN },
    });
    expect(result.isError).toBe(true);
    expect(textsOf(result)[0]).toBe(
      `[@fflkit/mcp] probe_conformance stopped: no answer from ${SERVICE} (token [redacted], read [redacted])`,
    );
  });
});
