import { describe, expect, it, vi } from 'vitest';

// The machine's name as node:os tells it, changed between the load of the guard and its use: the
// single executable loads its modules on the machine that builds it, and answers on another.
const machine = vi.hoisted(() => ({ name: 'build-machine' }));
vi.mock('node:os', async (importOriginal) => ({
  ...(await importOriginal<typeof import('node:os')>()),
  hostname: () => machine.name,
}));

const { refusalOf } = await import('../src/request-guard');

describe("refusalOf() and the machine's name", () => {
  it('takes the name of the machine it answers on, not of the one that loaded it', () => {
    machine.name = 'Run-Machine';
    expect(refusalOf('/rest/v1/books', { host: 'run-machine:4010' }, {})).toBeUndefined();
    expect(refusalOf('/rest/v1/books', { host: 'build-machine:4010' }, {})).toMatchObject({ status: 403 });
  });
});
