import type {
  AuditEntry,
  Book,
  Receipt,
  ReceiptDocument,
  SandboxAccount,
  SandboxAccountCreate,
  SandboxClock,
  SandboxDelivery,
  SandboxDocumentCreate,
  SandboxE4473Put,
  SandboxFault,
  SandboxFaultCreate,
  SandboxFixtures,
  SandboxFixturesLoaded,
  SandboxLoggedRequest,
  SandboxReceiptBrowseQuery,
  SandboxReceiptExportQuery,
  SandboxReceiptPage,
  SandboxRequestFilter,
  SandboxRequestLogEntry,
  SandboxToken,
  SandboxTokenCreate,
  SandboxWebhookChaosPut,
  SandboxWebhookEndpointState,
  ServiceOperationId,
  WebhookEndpoint,
} from '@fflkit/types';
import { type ControlClient, type ControlErrorFactory, queryString } from './control-client';

// The control API as calls made with an account's token: what `connectSandbox()` resolves to
// (with the sandbox's address, its health and its event stream) and what the MSW mock's control
// methods are, each made once here over the typed client.

/** A new account and its first token (read, write and delete), shown only here. */
export interface CreatedAccount {
  account: SandboxAccount;
  token: string;
}

/** A new token: its record and the token itself, shown only here. */
export interface SandboxTokenCreated {
  readonly record: SandboxToken;
  readonly token: string;
}

/**
 * The calls of the control API (`/_sandbox`, documented in `@fflkit/types/sandbox.yaml`) as
 * typed methods. Every call but `createAccount` and `fixtures.load` acts on the account of the
 * token it is given. A refused call rejects with the error of the package that made the calls.
 */
export interface ControlCalls {
  /** `POST /_sandbox/accounts`: an isolated account (a dealer unless told otherwise) and its token. */
  createAccount(options?: SandboxAccountCreate): Promise<CreatedAccount>;
  /**
   * `DELETE /_sandbox/account`: deletes the account of `token` with everything it owns; its
   * tokens get 401 from then on, and the sandbox can hold another account in its place.
   */
  deleteAccount(token: string): Promise<void>;
  /** `POST /_sandbox/reset`: empties the account, keeping its tokens, clock and request log. */
  reset(token: string): Promise<void>;
  readonly tokens: {
    /** `GET /_sandbox/tokens`: the account's tokens that are not revoked, in id order, never their values. */
    list(token: string): Promise<SandboxToken[]>;
    /** `POST /_sandbox/tokens`: another token of the account, with the given permissions. */
    create(token: string, input: SandboxTokenCreate): Promise<SandboxTokenCreated>;
    /** `DELETE /_sandbox/tokens/{id}`: revokes a token; the next request with it is a 401. */
    revoke(token: string, id: number): Promise<void>;
  };
  readonly books: {
    /** `GET /_sandbox/books`: the account's books with their counts, in id order; not counted by the rate limit. */
    list(token: string): Promise<Book[]>;
    /** `POST /_sandbox/books`: another book of the account. */
    create(token: string, name: string): Promise<Book>;
  };
  readonly clock: {
    /** `GET /_sandbox/clock`: the account's time and how far it is ahead of real time. */
    now(token: string): Promise<SandboxClock>;
    /**
     * `POST /_sandbox/clock/advance`: moves the account's clock forward by 1 to 31,536,000 seconds,
     * making every delivery attempt that falls due in the skipped time before it resolves.
     */
    advance(token: string, seconds: number): Promise<SandboxClock>;
  };
  readonly deliveries: {
    /** `GET /_sandbox/deliveries`: the account's webhook deliveries with their attempts, newest first. */
    list(token: string): Promise<SandboxDelivery[]>;
    /** `POST /_sandbox/deliveries/{id}/redeliver`: one more attempt of a delivery, now. */
    redeliver(token: string, id: string): Promise<SandboxDelivery>;
  };
  readonly webhooks: {
    /**
     * `GET /_sandbox/webhooks`: the account's endpoints in id order, each with its count of
     * consecutive failed attempts (the 10th disables it).
     */
    list(token: string): Promise<SandboxWebhookEndpointState[]>;
    /** `POST /_sandbox/webhooks/{id}/ping`: delivers a `ping` event to the endpoint, now. */
    ping(token: string, id: number): Promise<SandboxDelivery>;
    /** `POST /_sandbox/webhooks/{id}/enable`: re-enables an endpoint disabled after failures. */
    enable(token: string, id: number): Promise<WebhookEndpoint>;
    /**
     * `PUT /_sandbox/webhooks/{id}/chaos`: makes the endpoint's deliveries come in a shuffled
     * order (`reorder`), twice (`duplicate`) or late (`delay_ms`), drawn from `seed`; settings
     * left out are off. Resolves with the endpoint and its settings, the seed drawn included.
     */
    setChaos(token: string, id: number, settings: SandboxWebhookChaosPut): Promise<SandboxWebhookEndpointState>;
    /** `DELETE /_sandbox/webhooks/{id}/chaos`: deliveries made from now on are sent as the service sends them. */
    clearChaos(token: string, id: number): Promise<void>;
  };
  readonly receipts: {
    /**
     * `GET /_sandbox/receipts`: a page of the account's receipts, by id, that match every filter
     * given (those of `GET /receipts` and `GET /search` together); `per_page` up to 1,000, 50 by
     * default. Not counted by the rate limit, nor written to the request log.
     */
    browse(token: string, query?: SandboxReceiptBrowseQuery): Promise<SandboxReceiptPage>;
    /**
     * `GET /_sandbox/receipts/export`: every receipt the same filters select, as the CSV text of
     * the bound book (RFC 4180, CRLF lines, the columns of 27 CFR 478.125(e) first), by book and
     * record number.
     */
    export(token: string, query?: SandboxReceiptExportQuery): Promise<string>;
    /** `GET /_sandbox/receipts/{id}/audit`: the receipt's audit trail, oldest first. */
    audit(token: string, id: number): Promise<AuditEntry[]>;
    /** `POST /_sandbox/receipts/{id}/documents`: attaches a document, as the service's web app does. */
    attachDocument(token: string, id: number, input: SandboxDocumentCreate): Promise<ReceiptDocument>;
    /** `PUT /_sandbox/receipts/{id}/e4473`: sets the receipt's E4473 data. */
    putE4473(token: string, id: number, input: SandboxE4473Put): Promise<Receipt>;
  };
  readonly fixtures: {
    /**
     * `POST /_sandbox/fixtures`: loads a fixtures file (parsed) through the API's rules, in one
     * change; a file with any fault rejects with a 422 whose body names each by its path in the
     * file. Needs no token: the file's tokens are the accounts'.
     */
    load(file: SandboxFixtures): Promise<SandboxFixturesLoaded>;
    /** `GET /_sandbox/fixtures`: the account of `token` as a fixtures file, with that token in it. */
    export(token: string): Promise<SandboxFixtures>;
  };
  readonly faults: {
    /**
     * `POST /_sandbox/faults`: a rule that fails the account's service API requests on purpose
     * (a status, a dropped connection or a delay; before or after acting; every time, `times`
     * times, or with a seeded `probability`). Both faces honour it alike; see `sandbox.yaml`.
     */
    add(token: string, rule: SandboxFaultCreate): Promise<SandboxFault>;
    /** `GET /_sandbox/faults`: the account's rules in id order, with how often each fired. */
    list(token: string): Promise<SandboxFault[]>;
    /** `DELETE /_sandbox/faults/{id}`: deletes one rule. */
    delete(token: string, id: number): Promise<void>;
    /** `DELETE /_sandbox/faults`: deletes every rule of the account. */
    clear(token: string): Promise<void>;
  };
  /**
   * `GET /_sandbox/requests`: the account's logged API requests that match `filter`, newest
   * first: `method`, `path`, `operation`, `status`, `from`, `to`, `faulted`, and `body`, a part
   * of the body (typed by `operation`) that each must hold. Rejects when the log dropped entries
   * the filter could have matched (it keeps 1,000 requests and 1 MiB per account), so that an
   * assertion never counts a log cut short: narrow it with `from`.
   */
  requests<O extends ServiceOperationId>(
    token: string,
    filter: SandboxRequestFilter<O> & { operation: O },
  ): Promise<SandboxLoggedRequest<O>[]>;
  requests(token: string, filter?: SandboxRequestFilter): Promise<SandboxRequestLogEntry[]>;
}

/**
 * The calls of the control API over a typed client; `fail` makes the error of a request log that
 * dropped entries the filter could match (answered 200, so the client does not fail it).
 */
export function createControlCalls(client: ControlClient, fail: ControlErrorFactory): ControlCalls {
  const { call } = client;
  return {
    async createAccount(input = {}) {
      const { data: account, token } = await call('post', '/_sandbox/accounts', { body: input });
      return { account, token };
    },
    deleteAccount: (token) => call('delete', '/_sandbox/account', { token }),
    reset: (token) => call('post', '/_sandbox/reset', { token }),
    tokens: {
      list: async (token) => (await call('get', '/_sandbox/tokens', { token })).data,
      async create(token, input) {
        const { data: record, token: created } = await call('post', '/_sandbox/tokens', { token, body: input });
        return { record, token: created };
      },
      revoke: (token, id) => call('delete', '/_sandbox/tokens/{id}', { token, path: { id } }),
    },
    books: {
      list: async (token) => (await call('get', '/_sandbox/books', { token })).data,
      create: async (token, name) => (await call('post', '/_sandbox/books', { token, body: { name } })).data,
    },
    clock: {
      now: async (token) => (await call('get', '/_sandbox/clock', { token })).data,
      advance: async (token, seconds) =>
        (await call('post', '/_sandbox/clock/advance', { token, body: { seconds } })).data,
    },
    deliveries: {
      list: async (token) => (await call('get', '/_sandbox/deliveries', { token })).data,
      redeliver: async (token, id) =>
        (await call('post', '/_sandbox/deliveries/{id}/redeliver', { token, path: { id } })).data,
    },
    webhooks: {
      list: async (token) => (await call('get', '/_sandbox/webhooks', { token })).data,
      ping: async (token, id) => (await call('post', '/_sandbox/webhooks/{id}/ping', { token, path: { id } })).data,
      enable: async (token, id) => (await call('post', '/_sandbox/webhooks/{id}/enable', { token, path: { id } })).data,
      setChaos: async (token, id, settings) =>
        (await call('put', '/_sandbox/webhooks/{id}/chaos', { token, path: { id }, body: settings })).data,
      clearChaos: (token, id) => call('delete', '/_sandbox/webhooks/{id}/chaos', { token, path: { id } }),
    },
    receipts: {
      browse: (token, query) => call('get', '/_sandbox/receipts', { token, query }),
      export: (token, query) => call('get', '/_sandbox/receipts/export', { token, query }),
      audit: async (token, id) => (await call('get', '/_sandbox/receipts/{id}/audit', { token, path: { id } })).data,
      attachDocument: async (token, id, input) =>
        (await call('post', '/_sandbox/receipts/{id}/documents', { token, path: { id }, body: input })).data,
      putE4473: async (token, id, input) =>
        (await call('put', '/_sandbox/receipts/{id}/e4473', { token, path: { id }, body: input })).data,
    },
    fixtures: {
      load: async (file) => (await call('post', '/_sandbox/fixtures', { body: file })).data,
      export: (token) => call('get', '/_sandbox/fixtures', { token }),
    },
    faults: {
      add: async (token, rule) => (await call('post', '/_sandbox/faults', { token, body: rule })).data,
      list: async (token) => (await call('get', '/_sandbox/faults', { token })).data,
      delete: (token, id) => call('delete', '/_sandbox/faults/{id}', { token, path: { id } }),
      clear: (token) => call('delete', '/_sandbox/faults', { token }),
    },
    requests: (async (token: string, filter: SandboxRequestFilter = {}) => {
      const { body, ...rest } = filter;
      const query = body === undefined ? rest : { ...rest, body: JSON.stringify(body) };
      const log = await call('get', '/_sandbox/requests', { token, query });
      if (log.truncated) {
        const search = queryString(query);
        throw fail({
          status: 200,
          body: log,
          message: `GET /_sandbox/requests${search === '' ? '' : `?${search}`}: the request log dropped entries this filter could match (it keeps 1,000 requests and 1 MiB per account; ${log.dropped} dropped so far), so a count of them would be short: pass from, a moment before the requests you assert on.`,
        });
      }
      return log.data;
    }) as ControlCalls['requests'],
  };
}
