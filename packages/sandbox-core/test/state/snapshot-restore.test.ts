import { describe, expect, it } from 'vitest';
import { createSandboxCore } from '../../src/create-sandbox-core';
import type { SandboxSnapshot } from '../../src/sandbox-core-types';
import { countingBytes, dataOf, dispositionBody, receiptBody, START, withAccount } from '../support/harness';

describe('snapshot() and restore', () => {
  it('restores everything through JSON: records, counts, record numbers, sequences, trails, outbox', async () => {
    const world = await withAccount({ books: ['Consignment'] });
    const { api, control, core, token } = world;
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    for (const book of ['Main', 'Main', 'Consignment', 'Main']) await api('POST', '/receipts', { body: receiptBody({ book }) });
    await api('POST', '/receipts/2/dispose', { body: dispositionBody() });
    await api('DELETE', '/receipts/4');
    await control('POST', '/receipts/1/documents', { body: { name: 'a.pdf', mime_type: 'application/pdf', size: 1 } });
    await control('POST', '/clock/advance', { body: { seconds: 120 } });
    const readOnly = (await control('POST', '/tokens', { body: { permissions: ['read'] } })).body as { token: string };

    const restored = createSandboxCore({
      now: () => START,
      randomBytes: countingBytes(),
      snapshot: JSON.parse(JSON.stringify(core.snapshot())) as SandboxSnapshot,
    });
    const call = (method: string, path: string, body?: unknown, as = token) =>
      restored.handle({
        method,
        path,
        query: '',
        headers: { authorization: `Bearer ${as}`, host: 'sandbox.test' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect(restored.version).toBe(core.version);
    for (const path of ['/rest/v1/books', '/rest/v1/receipts', '/rest/v1/receipts/2', '/rest/v1/webhooks']) {
      expect((await call('GET', path)).body).toEqual((await api('GET', path.replace('/rest/v1', ''))).body);
    }
    expect((await call('GET', '/_sandbox/receipts/4/audit')).body).toEqual((await control('GET', '/receipts/4/audit')).body);
    expect(dataOf(await call('GET', '/_sandbox/clock'))).toEqual({ now: '2025-03-14T15:06:05Z', offset_seconds: 120 });
    expect((await call('GET', '/rest/v1/receipts/4')).status).toBe(404);
    expect((await call('POST', '/rest/v1/receipts', receiptBody(), readOnly.token)).status).toBe(403);
    expect(restored.snapshot().deliveries).toEqual(core.snapshot().deliveries);

    const next = dataOf<{ id: number; record: number }>(await call('POST', '/rest/v1/receipts', receiptBody()));
    expect([next.id, next.record]).toEqual([5, 4]);
    expect(dataOf<{ id: number }>(await call('POST', '/_sandbox/receipts/1/documents', { name: 'b', mime_type: 'a/b', size: 1 })).id).toBe(2);
    expect((await call('POST', '/rest/v1/receipts/3/dispose', dispositionBody())).status).toBe(422);
  });

  it('hands out the stored record objects, not copies', async () => {
    const { api, core } = await withAccount();
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts', { body: receiptBody() });
    const before = core.snapshot();
    await api('PUT', '/receipts/2', { body: { model: 'Changed' } });
    const after = core.snapshot();
    expect(after.receipts[0]).toBe(before.receipts[0]);
    expect(after.receipts[1]).not.toBe(before.receipts[1]);
    expect(after.accounts[0]).toBe(before.accounts[0]);
  });

  it('throws a TypeError naming the package for a snapshot it cannot read', () => {
    expect(() => createSandboxCore({ snapshot: { format: 2 } as unknown as SandboxSnapshot })).toThrow(
      /^\[@boundbook\/sandbox-core\] cannot restore the snapshot: format 2/,
    );
    const orphan = { format: 1, accounts: [], books: [{ id: 1, account_id: 9, name: 'Main', created_at: '' }] };
    expect(() => createSandboxCore({ snapshot: orphan as SandboxSnapshot })).toThrow(/book 1 belongs to account 9/);
  });
});
