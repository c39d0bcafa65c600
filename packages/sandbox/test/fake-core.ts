import type {
  CoreChangeSet,
  CreatedAccount,
  SandboxCore,
  SandboxRequest,
  SandboxResponse,
  SandboxSnapshot,
} from '@boundbook/sandbox-core';

/** The fake core, with what it saw and what it keeps, for assertions. */
export interface FakeCore extends SandboxCore {
  readonly requests: SandboxRequest[];
  /** Records kept by the fake: a POST adds one, so its `version` moves. */
  readonly items: { id: number; text: string | undefined }[];
}

/**
 * A stand-in for the sandbox core in tests of the transport: it echoes each request as its
 * body, answers `DELETE` with 204, and a `POST` stores one immutable record and moves `version`.
 */
export function createFakeCore(snapshot?: SandboxSnapshot): FakeCore {
  const requests: SandboxRequest[] = [];
  const items = [...((snapshot?.['items'] as FakeCore['items'] | undefined) ?? [])];
  let version = 0;
  return {
    requests,
    items,
    get version() {
      return version;
    },
    async handle(request: SandboxRequest): Promise<SandboxResponse> {
      requests.push(request);
      if (request.method === 'DELETE') return { status: 204, headers: { 'x-fake': 'yes' } };
      if (request.method === 'POST') {
        const item = { id: items.length + 1, text: request.body };
        items.push(item);
        version += 1;
        return { status: 201, headers: {}, body: { data: item } };
      }
      return { status: 200, headers: { 'x-fake': 'yes' }, body: { echo: request } };
    },
    createAccount(): CreatedAccount {
      version += 1;
      return {
        account: { id: 1, name: 'Sandbox account', account_type: 'dealer', created_at: '2025-01-01T00:00:00Z' },
        token: 'sbx_fake',
      };
    },
    snapshot(): SandboxSnapshot {
      return { format: 1, items: [...items] };
    },
    takeChanges(): CoreChangeSet {
      throw new TypeError('the fake core does not record changes');
    },
  };
}
