import { createSandboxCore } from '@fflkit/sandbox-core';
import type { Receipt, SandboxFixtures } from '@fflkit/types';
import { nodeAt } from '../contract-check/contract';

// The books, receipts and webhook endpoints that a proxy's callers saw, kept as a fixtures file
// (sandbox.yaml's `Fixtures`) that the sandbox and the mock load: one account per caller, known
// by a key derived from its token, with a fixed sandbox token and fixed secrets in place of the
// real ones; document links and the query of endpoint URLs, which can carry credentials, are
// left out. Receipts the service said were deleted are left out too. The file is loaded once
// into a sandbox core in memory before it is given: what the sandbox's rules refuse (a record
// the real service holds in another form) is left out, with the reason.

/** The receipt fields `POST /receipts` takes, in the contract's order. */
const RECEIPT_FIELDS = propertiesOf('#/components/schemas/ReceiptCreate');
/** The disposition fields `POST /receipts/{id}/dispose` takes. */
const DISPOSITION_FIELDS = propertiesOf('#/components/schemas/DispositionCreate');
/** The fields of E4473 data, as the sandbox's control call takes them. */
const E4473_FIELDS = propertiesOf('#/components/schemas/E4473');

/** The receipts a recording keeps per account, at most (the newest are kept). */
const MAX_RECEIPTS = 100_000;

type FixtureAccount = SandboxFixtures['accounts'][number];
type FixtureReceipt = NonNullable<FixtureAccount['receipts']>[number];

interface RecordedAccount {
  readonly books: Set<string>;
  readonly receipts: Map<number, Receipt>;
  readonly deleted: Set<number>;
  readonly webhooks: Map<number, { url: string; events: string[] }>;
}

/** A recorded fixtures file, and what of the recording it leaves out, with why. */
export interface RecordedFixtures {
  readonly fixtures: SandboxFixtures;
  readonly left: readonly string[];
}

/** The service's answers that hold books, receipts and endpoints, kept per caller. */
export class FixturesRecorder {
  readonly #accounts = new Map<string, RecordedAccount>();

  /** Keeps what a successful answer of `operation` shows; `id` is the path's id. */
  observe(caller: string, operation: string, id: number | undefined, status: number, body: unknown): void {
    if (status >= 300) return;
    const account = this.#account(caller);
    const data = (body as { data?: unknown } | undefined)?.data;
    switch (operation) {
      case 'listBooks':
        for (const book of data as Array<{ name: string }>) account.books.add(book.name);
        break;
      case 'listReceipts':
      case 'listInventory':
      case 'searchReceipts':
        for (const receipt of data as Receipt[]) keep(account, receipt);
        break;
      case 'getReceipt':
      case 'createReceipt':
      case 'updateReceipt':
      case 'disposeReceipt':
        keep(account, data as Receipt);
        break;
      case 'deleteReceipt':
        if (id !== undefined) {
          account.deleted.add(id);
          account.receipts.delete(id);
        }
        break;
      case 'listWebhooks':
        for (const endpoint of data as Array<{ id: number; url: string; events: string[] }>) {
          account.webhooks.set(endpoint.id, { url: endpoint.url, events: endpoint.events });
        }
        break;
      case 'createWebhook': {
        const endpoint = data as { id: number; url: string; events: string[] };
        account.webhooks.set(endpoint.id, { url: endpoint.url, events: endpoint.events });
        break;
      }
      case 'deleteWebhook':
        if (id !== undefined) account.webhooks.delete(id);
        break;
    }
  }

  /** Whether anything was recorded. */
  get empty(): boolean {
    return [...this.#accounts.values()].every(
      (account) => account.books.size === 0 && account.receipts.size === 0 && account.webhooks.size === 0,
    );
  }

  /** The fixtures file of what was recorded, as the sandbox's rules take it. */
  async fixtures(): Promise<RecordedFixtures> {
    const accounts = [...this.#accounts.values()].map(fixtureAccount);
    const left: string[] = [];
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const errors = await refusals({ accounts });
      if (errors === undefined) return { fixtures: { accounts }, left };
      // Each record the rules refuse is left out; the others are loaded again without them.
      const refused = new Map<unknown[], Map<number, string>>();
      for (const [path, messages] of Object.entries(errors)) {
        const match = /^accounts\[(\d+)\]\.(receipts|webhooks)\[(\d+)\]\.?/.exec(path);
        const list =
          match === null
            ? undefined
            : (accounts[Number(match[1])]?.[match[2] as 'receipts' | 'webhooks'] as unknown[] | undefined);
        const position = Number(match?.[3]);
        const entry = list?.[position] as { serial_number?: string; url?: string } | undefined;
        if (match === null || list === undefined || entry === undefined) {
          throw new Error(`[@fflkit/sandbox] the recorded fixtures are refused: ${path}: ${messages[0]}`);
        }
        const what =
          entry.serial_number === undefined ? `the webhook ${entry.url}` : `the receipt ${entry.serial_number}`;
        const reasons = refused.get(list) ?? new Map<number, string>();
        if (!reasons.has(position)) {
          reasons.set(
            position,
            `${what} of recorded account ${Number(match[1]) + 1}: ${path.slice(match[0].length) || 'it'} ${messages[0]}`,
          );
        }
        refused.set(list, reasons);
      }
      for (const [list, reasons] of refused) {
        for (const position of [...reasons.keys()].sort((a, b) => b - a)) list.splice(position, 1);
        left.push(...reasons.values());
      }
    }
    throw new Error('[@fflkit/sandbox] the recorded fixtures are refused too often to be repaired');
  }

  #account(caller: string): RecordedAccount {
    let account = this.#accounts.get(caller);
    if (account === undefined) {
      account = { books: new Set(), receipts: new Map(), deleted: new Set(), webhooks: new Map() };
      this.#accounts.set(caller, account);
    }
    return account;
  }
}

function keep(account: RecordedAccount, receipt: Receipt): void {
  if (typeof receipt?.id !== 'number' || account.deleted.has(receipt.id)) return;
  const before = account.receipts.get(receipt.id);
  if (before !== undefined && before.updated_at > receipt.updated_at) return;
  if (before === undefined && account.receipts.size >= MAX_RECEIPTS) {
    account.receipts.delete(account.receipts.keys().next().value!);
  }
  account.receipts.set(receipt.id, receipt);
}

function fixtureAccount(account: RecordedAccount, index: number): FixtureAccount {
  const number = index + 1;
  const receipts = [...account.receipts.values()].sort((a, b) => a.id - b.id).map(fixtureReceipt);
  const books = new Set([...account.books, ...receipts.map((receipt) => receipt.book)]);
  books.delete('Main');
  const webhooks = [...account.webhooks.values()].map(({ url, events }, position) => ({
    url: withoutCredentials(url),
    events: events as NonNullable<FixtureAccount['webhooks']>[number]['events'],
    secret: `whsec_recorded${fixed(number * 1_000 + position + 1, 24)}`,
  }));
  return {
    name: `Recorded account ${number}`,
    ...(books.size > 0 && { books: [...books] }),
    tokens: [{ token: `sbx_recorded${fixed(number, 24)}`, name: 'Recorded by fflkit-sandbox proxy' }],
    ...(webhooks.length > 0 && { webhooks }),
    ...(receipts.length > 0 && { receipts }),
  };
}

function fixtureReceipt(receipt: Receipt): FixtureReceipt {
  const source = receipt as unknown as Record<string, unknown>;
  const fixture = given(source, RECEIPT_FIELDS) as unknown as FixtureReceipt;
  if (receipt.disposition !== null) {
    fixture.disposition = given(
      receipt.disposition as unknown as Record<string, unknown>,
      DISPOSITION_FIELDS,
    ) as NonNullable<FixtureReceipt['disposition']>;
  }
  if (receipt.documents.length > 0) {
    fixture.documents = receipt.documents.map(({ name, mime_type, size }) => ({ name, mime_type, size }));
  }
  if (receipt.e4473 !== null) {
    fixture.e4473 = given(receipt.e4473 as unknown as Record<string, unknown>, E4473_FIELDS) as NonNullable<
      FixtureReceipt['e4473']
    >;
  }
  return fixture;
}

/** The fields of `source` that are given (neither absent nor null). */
function given(source: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const field of fields) if (source[field] !== undefined && source[field] !== null) result[field] = source[field];
  return result;
}

/** An endpoint's URL without what can carry a credential: the user, the password, the query and the fragment. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}

function fixed(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function propertiesOf(pointer: string): string[] {
  return Object.keys((nodeAt(pointer) as { properties: Record<string, unknown> }).properties);
}

/** The errors of loading `fixtures` into an empty sandbox core, or `undefined` when it loads. */
async function refusals(fixtures: SandboxFixtures): Promise<Record<string, string[]> | undefined> {
  const core = createSandboxCore({});
  const response = await core.handle({
    method: 'POST',
    path: '/_sandbox/fixtures',
    query: '',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fixtures),
  });
  if (response.status === 200) return undefined;
  const body = response.body as { message?: string; errors?: Record<string, string[]> };
  return body.errors ?? { body: [body.message ?? `answered ${response.status}`] };
}
