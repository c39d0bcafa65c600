import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectClient, fakeFetch, json, SANDBOX_HEALTH, textsOf } from '../support/fake-server';

const SERVICE = 'https://logbook.example.com/rest/v1';

/** The text of a resource's contents. */
function textOf(contents: object | undefined): string {
  return contents !== undefined && 'text' in contents ? String(contents.text) : '';
}
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A client of a server whose base URL answers as `sandbox` says: a sandbox or the real service. */
async function connect(sandbox: boolean, options: { allowWrites?: boolean; token?: string } = {}) {
  let isSandbox = sandbox;
  const { fetch, received } = fakeFetch((request) => {
    if (request.url.pathname === '/_sandbox/health')
      return isSandbox ? json(200, SANDBOX_HEALTH) : json(404, { message: 'Not Found' });
    if (request.url.pathname === '/rest/v1/books') return json(200, { data: [{ id: 1, name: 'Main' }] });
    if (request.url.pathname === '/rest/v1/receipts') return json(201, { data: { id: 7 } });
    return undefined;
  });
  const client = await connectClient({
    baseUrl: SERVICE,
    token: options.token ?? 'live-token-0001',
    fetch,
    allowWrites: options.allowWrites,
  });
  clients.push(client);
  return { client, received, becomeSandbox: () => (isSandbox = true) };
}

describe('the write guard', () => {
  it('lists only the read-only service tools against a base URL that is not a sandbox', async () => {
    const { client } = await connect(false);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.map((tool) => tool.name)).toEqual([
      'list_receipts',
      'get_receipt',
      'list_books',
      'list_inventory',
      'search_receipts',
      'list_webhooks',
    ]);
  });

  it('refuses a write there as a tool error, sending nothing to the service', async () => {
    const { client, received } = await connect(false);
    const result = await client.callTool({ name: 'create_receipt', arguments: { book: 'Main' } });
    expect(result.isError).toBe(true);
    expect(textsOf(result)[0]).toBe(
      'create_receipt writes, and https://logbook.example.com/rest/v1 is not an FFLKit sandbox: only read-only tools are listed there. Start fflkit-mcp with --allow-writes to write to that service.',
    );
    expect(received.filter((request) => request.url.pathname.startsWith('/rest/v1'))).toEqual([]);
  });

  it('refuses a control call there, even with --allow-writes', async () => {
    const { client } = await connect(false, { allowWrites: true });
    const result = await client.callTool({ name: 'get_clock', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textsOf(result)[0]).toMatch(
      /^get_clock is a call of the FFLKit sandbox, and https:\/\/logbook\.example\.com\/rest\/v1 is not one/,
    );
  });

  it('lists the writes of the service with --allow-writes, and runs them', async () => {
    const { client } = await connect(false, { allowWrites: true });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('create_receipt');
    expect(names).toContain('delete_receipt');
    expect(names).not.toContain('advance_clock');
    const result = await client.callTool({ name: 'create_receipt', arguments: { book: 'Main' } });
    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: '{"data":{"id":7}}' }] });
  });

  it('lists every tool against a sandbox', async () => {
    const { client } = await connect(true);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('create_receipt');
    expect(names).toContain('advance_clock');
    expect(names).toContain('trigger_event');
  });

  it('finds a sandbox started after the session, and tells the client that the list changed', async () => {
    const { client, becomeSandbox } = await connect(false);
    let changed = 0;
    const { ToolListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('create_receipt');
    becomeSandbox();
    await client.callTool({ name: 'list_books', arguments: {} });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('create_receipt');
    expect(changed).toBe(1);
  });
});

describe('tools/call', () => {
  it('answers an unknown tool with a protocol error naming it', async () => {
    const { client } = await connect(true);
    await expect(client.callTool({ name: 'create_reciept', arguments: {} })).rejects.toThrow(
      /Unknown tool create_reciept/,
    );
  });

  it("scrubs the session's own token from every output, whatever its shape", async () => {
    const { fetch } = fakeFetch(() => json(401, { message: 'Unauthenticated.', echo: 'live-token-0001' }));
    const client = await connectClient({ baseUrl: SERVICE, token: 'live-token-0001', fetch });
    clients.push(client);
    const result = await client.callTool({ name: 'list_books', arguments: {} });
    expect(JSON.stringify(result)).not.toContain('live-token-0001');
    expect(textsOf(result)[0]).toContain('"echo":"[redacted]"');
  });
});

describe('the resources', () => {
  it('list the contract, the records rules and the fixtures schema; the bound book only on a sandbox', async () => {
    const service = (await (await connect(false)).client.listResources()).resources.map((resource) => resource.uri);
    const sandbox = (await (await connect(true)).client.listResources()).resources.map((resource) => resource.uri);
    expect(service).toEqual([
      'fflkit://contract/openapi.yaml',
      'fflkit://contract/sandbox.yaml',
      'fflkit://rules/records',
      'fflkit://fixtures/schema.json',
    ]);
    expect(sandbox).toEqual([...service, 'fflkit://account/bound-book.csv']);
  });

  it('read the contract as it is written', async () => {
    const { client } = await connect(false);
    const { contents } = await client.readResource({ uri: 'fflkit://contract/openapi.yaml' });
    expect(contents[0]).toMatchObject({ mimeType: 'application/yaml' });
    expect(textOf(contents[0])).toMatch(/^openapi: 3\.1\.0\n/);
  });

  it("read the records rules from the contract's descriptions", async () => {
    const { client } = await connect(false);
    const text = textOf((await client.readResource({ uri: 'fflkit://rules/records' })).contents[0]);
    expect(text).toContain('## Create a receipt: `POST /rest/v1/receipts`');
    expect(text).toContain('27 CFR\n  478.125(e)');
    expect(text).toMatch(
      /\| `serial_number` \| yes \| string, not empty, at most 255 characters \| Serial number of the firearm\. \|/,
    );
    expect(text).toMatch(
      /\| `form_4473_serial` \| no \| .* \| Serial of the transfer form; unique within the account\. \|/,
    );
  });

  it('refuse the bound book off a sandbox, naming what there is', async () => {
    const { client } = await connect(false);
    await expect(client.readResource({ uri: 'fflkit://account/bound-book.csv' })).rejects.toThrow(
      /No resource fflkit:\/\/account\/bound-book\.csv: this server has fflkit:\/\/contract\/openapi\.yaml/,
    );
  });
});
