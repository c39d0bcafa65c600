import { describe, expect, it } from 'vitest';
import { dataOf, errorsOf, withAccount } from '../harness/harness';

describe('POST /_sandbox/tokens', () => {
  it('issues another token of the account with the given permissions and name', async () => {
    const { control, api } = await withAccount();
    const response = await control('POST', '/tokens', { body: { permissions: ['read'], name: ' Inventory sync ' } });
    expect(response.status).toBe(201);
    const body = response.body as { data: unknown; token: string };
    expect(body.data).toEqual({
      id: 2,
      name: 'Inventory sync',
      permissions: ['read'],
      created_at: '2025-03-14T15:04:05Z',
    });
    expect((await api('GET', '/books', { token: body.token })).status).toBe(200);
    expect((await api('POST', '/receipts', { token: body.token, body: {} })).status).toBe(403);
  });

  it('validates the permissions', async () => {
    const { control } = await withAccount();
    const errors = async (body: unknown) => errorsOf(await control('POST', '/tokens', { body }));
    expect(await errors({})).toEqual({ permissions: ['The permissions field is required.'] });
    expect(await errors({ permissions: ['admin'] })).toEqual({
      'permissions.0': ['The selected permissions.0 is invalid.'],
    });
    expect(await errors({ permissions: ['read', 'read'] })).toEqual({
      'permissions.1': ['The permissions.1 field has a duplicate value.'],
    });
    expect(await errors({ permissions: [], name: 3 })).toEqual({ name: ['The name field must be a string.'] });
  });
});

describe('DELETE /_sandbox/tokens/{id}', () => {
  it('revokes a token of the account, the caller included, and 404 for others', async () => {
    const { control, call } = await withAccount();
    const other = await withAccount();
    expect((await control('DELETE', '/tokens/99')).status).toBe(404);
    const foreign = await other.control('POST', '/tokens', { body: { permissions: [] } });
    expect((await control('DELETE', `/tokens/${(foreign.body as { data: { id: number } }).data.id}`)).status).toBe(404);
    expect((await control('DELETE', '/tokens/1')).status).toBe(204);
    expect((await control('GET', '/clock')).status).toBe(401);
    expect((await call('POST', '/_sandbox/accounts')).status).toBe(201);
  });
});

describe('GET /_sandbox/tokens', () => {
  it('lists the tokens that are not revoked, never their values', async () => {
    const { control } = await withAccount();
    const created = dataOf<{ id: number }>(
      await control('POST', '/tokens', { body: { permissions: ['read'], name: 'Reports' } }),
    );
    await control('POST', '/tokens', { body: { permissions: [] } });
    await control('DELETE', `/tokens/${created.id + 1}`);
    const tokens = dataOf<Record<string, unknown>[]>(await control('GET', '/tokens'));
    expect(tokens).toEqual([
      { id: 1, name: null, permissions: ['read', 'write', 'delete'], created_at: '2025-03-14T15:04:05Z' },
      { id: 2, name: 'Reports', permissions: ['read'], created_at: '2025-03-14T15:04:05Z' },
    ]);
  });
});
