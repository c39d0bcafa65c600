import { type RunningSandbox, startSandbox } from '@fflkit/sandbox';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, httpClient, startReceiver, textsOf } from './mcp-clients';

// No output of the server holds a token or a webhook secret, but the one a call just created,
// in that call's answer: not the session's token, not the fixed token and secret of a fixtures
// file (which the fixtures export holds), not a token sent in a request the log keeps.

const FIXED_TOKEN = 'sbx_credentials00000000000000001';
const FIXED_SECRET = 'whsec_credentials0000000000000000000000001';
const CREDENTIAL = /(?:sbx|whsec)_[A-Za-z0-9]+/g;

describe('the outputs of the server', () => {
  let sandbox: RunningSandbox;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let client: Client;

  beforeAll(async () => {
    receiver = await startReceiver();
    sandbox = await startSandbox({
      rateLimit: 0,
      fixtures: {
        accounts: [
          {
            name: 'Credentials',
            tokens: [{ token: FIXED_TOKEN }],
            webhooks: [{ url: receiver.url, events: ['*'], secret: FIXED_SECRET }],
          },
        ],
      },
    });
    client = await httpClient(sandbox.url, FIXED_TOKEN);
  });

  afterAll(async () => {
    await client?.close();
    await sandbox?.stop();
    await receiver?.stop();
  });

  it('hold no credential but the one the call itself created', async () => {
    // A request that carries credentials where the log keeps them: in the query and the body.
    await fetch(`${sandbox.apiUrl}/receipts?token=${FIXED_TOKEN}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${FIXED_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ book: 'Main', notes: `secret ${FIXED_SECRET}` }),
    });
    const outputs: { tool: string; text: string; created: string[] }[] = [];
    const call = async (
      name: string,
      args: Record<string, unknown> = {},
      created: (answer: Record<string, unknown>) => string[] = () => [],
    ) => {
      const result = await client.callTool({ name, arguments: args });
      const text = textsOf(result).join('\n');
      outputs.push({ tool: name, text, created: result.isError ? [] : created(answerOf(result)) });
      return result;
    };
    await call('export_fixtures');
    await call('list_requests');
    await call('list_webhooks');
    await call('list_webhook_states');
    const ping = answerOf<{ data: { id: string } }>(await call('ping_webhook', { id: 1 }));
    await call('get_delivery', { id: ping.data.id });
    await call('create_token', { permissions: ['read'] }, (answer) => [String(answer['token'])]);
    await call('create_webhook', { url: receiver.url, events: ['ping'] }, (answer) => [String(answer['secret'])]);
    await call('list_tokens');
    await call('export_fixtures');
    await call('list_books', { page: 'x' });
    await call('create_account', {}, (answer) => [String(answer['token'])]);
    // The new account's session: its own export holds its token, which is the session's now.
    await call('export_fixtures');

    const export1 = outputs[0]!.text;
    expect(export1).toContain('"token":"[redacted]"');
    expect(export1).toContain('"secret":"[redacted]"');
    expect(outputs[1]!.text).toContain('Bearer [redacted]');
    for (const { tool, text, created } of outputs) {
      const shown = text.match(CREDENTIAL) ?? [];
      expect(
        shown.filter((credential) => !created.includes(credential)),
        tool,
      ).toEqual([]);
    }
    // The credentials created were shown once, by the call that made each.
    const created = outputs.flatMap((output) => output.created);
    expect(created).toHaveLength(3);
    for (const credential of created) {
      expect(outputs.filter((output) => output.text.includes(credential)).map((output) => output.tool)).toHaveLength(1);
    }
  });

  it('read the bound book with no credential in it, even one a record holds', async () => {
    const response = await fetch(`${sandbox.apiUrl}/receipts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${FIXED_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        book: 'Main',
        serial_number: 'EXA0012399',
        manufacturer: 'Example Arms Co.',
        model: `Pasted ${FIXED_TOKEN}`,
        type: 'Pistol',
        caliber: '9mm Luger',
        receipt_date: '2025-03-14',
        received_from: 'Example Firearms Wholesale LLC',
        ffl_license: '9-99-999-01-6A-00001',
      }),
    });
    expect(response.status).toBe(201);
    const client2 = await httpClient(sandbox.url, FIXED_TOKEN);
    const csv = await client2.readResource({ uri: 'fflkit://account/bound-book.csv' });
    await client2.close();
    expect(JSON.stringify(csv)).toContain('Pasted [redacted]');
    expect(JSON.stringify(csv)).not.toMatch(CREDENTIAL);
  });
});
