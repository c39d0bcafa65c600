import { type Contract, type ContractFileName, readContractFile } from '../contract/contract';
import { recordsRules } from '../contract/records-rules';
import { outcomeOf } from '../tools/tool';
import type { LogbookSession } from './session';

// The resources of the server: the contract's two documents as they are written, the records
// rules read from it, the fixtures file's JSON Schema, and, on a sandbox, the bound book of the
// session's account as CSV (`GET /_sandbox/receipts/export`).

/** A resource as `resources/list` lists it. */
export interface ResourceEntry {
  readonly uri: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: string;
}

interface Resource extends ResourceEntry {
  /**
   * Whether it is read from the sandbox, and so listed only when the base URL is one, and
   * scrubbed of credentials (the contract's files hold only examples of them).
   */
  readonly sandboxOnly: boolean;
  read(session: LogbookSession, contract: Contract): Promise<string>;
}

const file = (name: ContractFileName) => async (): Promise<string> => readContractFile(name);

const RESOURCES: readonly Resource[] = [
  {
    uri: 'fflkit://contract/openapi.yaml',
    name: 'openapi.yaml',
    title: 'The contract of the service API',
    description:
      "OpenAPI 3.1 description of every operation, schema, error and webhook event of the Logbook Service, with the toolkit's choices where the service's document is silent.",
    mimeType: 'application/yaml',
    sandboxOnly: false,
    read: file('openapi.yaml'),
  },
  {
    uri: 'fflkit://contract/sandbox.yaml',
    name: 'sandbox.yaml',
    title: "The contract of the sandbox's control API",
    description:
      "OpenAPI 3.1 description of the local sandbox's control calls under /_sandbox: accounts, tokens, the clock, deliveries, faults, fixtures, the request log.",
    mimeType: 'application/yaml',
    sandboxOnly: false,
    read: file('sandbox.yaml'),
  },
  {
    uri: 'fflkit://rules/records',
    name: 'records-rules.md',
    title: 'Records rules (27 CFR 478)',
    description:
      "What every receipt, correction, disposition and deletion must respect, in the contract's words: read it before writing a record.",
    mimeType: 'text/markdown',
    sandboxOnly: false,
    read: async (_session, contract) => recordsRules(contract),
  },
  {
    uri: 'fflkit://fixtures/schema.json',
    name: 'fixtures.schema.json',
    title: 'JSON Schema of a fixtures file',
    description:
      'The schema of the files load_fixtures takes and export_fixtures answers (accounts, fixed tokens and secrets, books, endpoints, receipts).',
    mimeType: 'application/schema+json',
    sandboxOnly: false,
    read: file('fixtures.schema.json'),
  },
  {
    uri: 'fflkit://account/bound-book.csv',
    name: 'bound-book.csv',
    title: "The account's bound book as CSV",
    description:
      'Every receipt of the account the session acts as, in bound-book order, in the columns of 27 CFR 478.125(e) (GET /_sandbox/receipts/export).',
    mimeType: 'text/csv',
    sandboxOnly: true,
    async read(session) {
      const request = { method: 'GET', path: '/_sandbox/receipts/export' };
      const answer = await session.send(request);
      const outcome = outcomeOf(request, answer);
      if (outcome.isError) throw new ResourceReadError(outcome.texts.join(' '));
      return outcome.texts[0] ?? '';
    },
  },
];

/** A resource could not be read (unknown, or its source answered an error). */
export class ResourceReadError extends Error {
  override readonly name = 'ResourceReadError';
}

/** The resources a session lists: all of them on a sandbox, those of the contract elsewhere. */
export function listResources(sandbox: boolean): ResourceEntry[] {
  return RESOURCES.filter((resource) => sandbox || !resource.sandboxOnly).map(
    ({ uri, name, title, description, mimeType }) => ({ uri, name, title, description, mimeType }),
  );
}

/** Reads a resource (what the sandbox answered scrubbed of credentials); rejects with a {@link ResourceReadError} for one that is not listed. */
export async function readResource(
  uri: string,
  session: LogbookSession,
  contract: Contract,
): Promise<{ uri: string; mimeType: string; text: string }> {
  const resource = RESOURCES.find((candidate) => candidate.uri === uri);
  if (resource === undefined || (resource.sandboxOnly && !(await session.isSandbox()))) {
    const listed = listResources(await session.isSandbox()).map((entry) => entry.uri);
    throw new ResourceReadError(`No resource ${uri}: this server has ${listed.join(', ')}.`);
  }
  const text = await resource.read(session, contract);
  return { uri, mimeType: resource.mimeType, text: resource.sandboxOnly ? session.scrubber.scrub(text) : text };
}
