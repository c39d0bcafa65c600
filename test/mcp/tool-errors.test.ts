import { type RunningSandbox, startSandbox } from '@fflkit/sandbox';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, inMemoryClient, textsOf } from './mcp-clients';

// A refusal of the sandbox reaches the agent as a tool error carrying the contract's error body,
// so that it can correct its input: a 422's `errors` names each field. The refused call changes
// nothing.

describe('a 4xx of the sandbox, through a tool', () => {
  let sandbox: RunningSandbox;
  let client: Client;

  beforeAll(async () => {
    sandbox = await startSandbox();
    client = await inMemoryClient({ baseUrl: sandbox.apiUrl });
    answerOf(await client.callTool({ name: 'create_account', arguments: { name: 'Tool errors' } }));
  });

  afterAll(async () => {
    await client?.close();
    await sandbox?.stop();
  });

  it("is a tool error with a 422's field errors, and records nothing", async () => {
    const result = await client.callTool({
      name: 'create_receipt',
      arguments: { book: 'Main', serial_number: 'EXA0012345', receipt_date: '2025-13-40' },
    });
    expect(result.isError).toBe(true);
    const [text] = textsOf(result);
    expect(text).toMatch(/^POST \/rest\/v1\/receipts answered 422: \{/);
    const body = JSON.parse(text!.slice(text!.indexOf('{'))) as { message: string; errors: Record<string, string[]> };
    expect(body.message).toEqual(expect.any(String));
    expect(Object.keys(body.errors)).toEqual(
      expect.arrayContaining(['manufacturer', 'model', 'type', 'caliber', 'receipt_date', 'received_from']),
    );
    expect(body.errors['receipt_date']?.[0]).toEqual(expect.any(String));
    expect(answerOf<{ data: unknown[] }>(await client.callTool({ name: 'list_receipts', arguments: {} })).data).toEqual(
      [],
    );
  });

  it("is a tool error with the contract's body for a 404", async () => {
    const result = await client.callTool({ name: 'get_receipt', arguments: { id: 999_999 } });
    expect(result.isError).toBe(true);
    const [text] = textsOf(result);
    expect(text).toMatch(/^GET \/rest\/v1\/receipts\/999999 answered 404: \{"message":"/);
  });
});
