import { createSandboxCore, type SandboxCore } from '@fflkit/sandbox-core';
import type {
  AuditEntry,
  SandboxDelivery,
  SandboxReceiptPage,
  SandboxRequestLogEntry,
  SandboxToken,
  SandboxWebhookEndpointState,
} from '@fflkit/types';
import { describe, expect, it } from 'vitest';
import { addDemoAccount, DEMO_RECEIPTS, planDemo } from '../../src/demo/demo-account';
import { MemoryStorage } from '../../src/persistence/memory-storage';
import { CorePersister } from '../../src/persistence/persister';
import { nodeSha256Hex } from '@fflkit/sandbox-core/node-crypto';

/** A core on a fixed day after the demo's records, in memory. */
function demoWorld(options: { rateLimit?: number; maxAccounts?: number } = {}) {
  const core = createSandboxCore({ sha256Hex: nodeSha256Hex, now: () => Date.UTC(2026, 0, 15, 12), ...options });
  return { core, persister: new CorePersister(core, new MemoryStorage()) };
}

async function control<T>(core: SandboxCore, token: string, path: string, query = ''): Promise<T> {
  const answer = await core.handle({ method: 'GET', path, query, headers: { authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
  return answer.body as T;
}

describe('planDemo(seed)', () => {
  it('gives the same account for the same seed, and another for another seed', () => {
    expect(JSON.stringify(planDemo(7))).toBe(JSON.stringify(planDemo(7)));
    expect(planDemo(7).token).not.toBe(planDemo(8).token);
    expect(JSON.stringify(planDemo(7).fixtures)).not.toBe(JSON.stringify(planDemo(8).fixtures));
  });

  it('plans a dealer with four books, a few thousand receipts of unique serials, dispositions, documents and corrections', () => {
    const plan = planDemo(1);
    const [account] = plan.fixtures.accounts;
    expect(plan.token).toMatch(/^sbx_demo[A-Za-z0-9]{28}$/);
    expect(account).toMatchObject({ account_type: 'dealer', books: ['Consignment', 'Gunsmithing', 'Rentals'] });
    const receipts = account!.receipts!;
    expect(receipts).toHaveLength(DEMO_RECEIPTS);
    expect(new Set(receipts.map((receipt) => receipt.serial_number)).size).toBe(DEMO_RECEIPTS);
    expect(new Set(receipts.map((receipt) => receipt.book))).toEqual(
      new Set(['Main', 'Consignment', 'Gunsmithing', 'Rentals']),
    );
    expect(new Set(receipts.map((receipt) => receipt.manufacturer)).size).toBeGreaterThan(20);
    const disposed = receipts.filter((receipt) => receipt.disposition !== undefined);
    expect(disposed).toHaveLength(plan.disposed);
    expect(plan.disposed / DEMO_RECEIPTS).toBeGreaterThan(0.3);
    expect(plan.disposed / DEMO_RECEIPTS).toBeLessThan(0.8);
    expect(receipts.some((receipt) => receipt.e4473 !== undefined)).toBe(true);
    expect(receipts.some((receipt) => receipt.documents !== undefined)).toBe(true);
    expect(receipts.some((receipt) => receipt.ffl_license === undefined && receipt.zip !== undefined)).toBe(true);
    expect(plan.corrections.length).toBeGreaterThan(30);
  });
});

describe('addDemoAccount(sandbox, seed)', () => {
  it('makes the account through the core: receipts, dispositions, corrections with audit entries, tokens and an endpoint, no delivery', async () => {
    const world = demoWorld();
    const demo = await addDemoAccount(world, 3);
    const plan = planDemo(3);
    expect(demo).toEqual({
      seed: 3,
      name: 'Ridgeline Firearms & Outfitters (demo)',
      token: plan.token,
      created: true,
      books: ['Main', 'Consignment', 'Gunsmithing', 'Rentals'],
      receipts: DEMO_RECEIPTS,
      disposed: plan.disposed,
      corrected: plan.corrections.length,
      webhook: { url: 'http://127.0.0.1:3000/webhooks', secret: expect.stringMatching(/^whsec_demo[A-Za-z0-9]{28}$/) },
    });
    const { core } = world;
    const all = await control<SandboxReceiptPage>(core, demo.token, '/_sandbox/receipts', 'per_page=1');
    expect(all.meta.total).toBe(DEMO_RECEIPTS);
    const disposed = await control<SandboxReceiptPage>(
      core,
      demo.token,
      '/_sandbox/receipts',
      'per_page=1&status=disposed',
    );
    expect(disposed.meta.total).toBe(plan.disposed);

    const [correction] = plan.corrections;
    const found = await control<SandboxReceiptPage>(
      core,
      demo.token,
      '/_sandbox/receipts',
      `serial_number=${encodeURIComponent(correction!.serial_number)}`,
    );
    const [receipt] = found.data;
    expect(receipt).toMatchObject(correction!.fields);
    const audit = await control<{ data: AuditEntry[] }>(core, demo.token, `/_sandbox/receipts/${receipt!.id}/audit`);
    expect(audit.data.map((entry) => entry.action)).toContain('updated');

    const requests = await control<{ data: SandboxRequestLogEntry[] }>(core, demo.token, '/_sandbox/requests');
    expect(requests.data).toHaveLength(plan.corrections.length);
    expect(new Set(requests.data.map((entry) => `${entry.method} ${entry.status}`))).toEqual(new Set(['PUT 200']));
    const tokens = await control<{ data: SandboxToken[] }>(core, demo.token, '/_sandbox/tokens');
    expect(tokens.data.map((token) => token.name)).toEqual(['Demo', 'Back office', 'Point of sale']);
    const webhooks = await control<{ data: SandboxWebhookEndpointState[] }>(core, demo.token, '/_sandbox/webhooks');
    expect(webhooks.data).toEqual([
      expect.objectContaining({ url: 'http://127.0.0.1:3000/webhooks', events: ['*'], enabled: true }),
    ]);
    const deliveries = await control<{ data: SandboxDelivery[] }>(core, demo.token, '/_sandbox/deliveries');
    expect(deliveries.data).toEqual([]);
  });

  it('changes nothing when the core holds the demo of the seed already, as on a data file started again', async () => {
    const world = demoWorld();
    await addDemoAccount(world, 1);
    const version = world.core.version;
    const again = await addDemoAccount(world, 1);
    expect([again.created, again.corrected, again.token]).toEqual([false, 0, planDemo(1).token]);
    expect(world.core.version).toBe(version);
  });

  it('makes fewer corrections under a rate limit too low for them, and no error', async () => {
    const world = demoWorld({ rateLimit: 5 });
    const demo = await addDemoAccount(world, 1);
    // Each of the two correcting tokens makes 5 requests before its 429.
    expect(demo.corrected).toBe(10);
  });

  it('rejects with what to do when the sandbox holds its limit of accounts', async () => {
    const world = demoWorld({ maxAccounts: 1 });
    world.core.createAccount();
    await expect(addDemoAccount(world, 1)).rejects.toThrow(
      /^the demo account cannot be added: .+ Start with --max-accounts set higher, or without --demo\.$/,
    );
  });
});
