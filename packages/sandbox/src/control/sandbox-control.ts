import type {
  AuditEntry,
  Book,
  Receipt,
  ReceiptDocument,
  SandboxAccount,
  SandboxClock,
  SandboxComponents,
  SandboxDelivery,
  SandboxRequestLogEntry,
  SandboxToken,
  WebhookEndpoint,
} from '@boundbook/types';

/** Body of `POST /_sandbox/accounts`: every field optional (a dealer with the book `Main`). */
export type AccountCreate = SandboxComponents['schemas']['AccountCreate'];
/** Body of `POST /_sandbox/tokens`. */
export type TokenCreate = SandboxComponents['schemas']['TokenCreate'];
/** Body of `POST /_sandbox/receipts/{id}/documents`. */
export type DocumentCreate = SandboxComponents['schemas']['DocumentCreate'];
/** Body of `PUT /_sandbox/receipts/{id}/e4473`. */
export type E4473Put = SandboxComponents['schemas']['E4473Put'];

/** A new account and its first token (read, write and delete), shown only here. */
export interface SandboxAccountCreated {
  readonly account: SandboxAccount;
  readonly token: string;
}

/** A new token: its record and the token itself, shown only here. */
export interface SandboxTokenCreated {
  readonly record: SandboxToken;
  readonly token: string;
}

/**
 * The sandbox's control API (`/_sandbox`, documented in `openapi/sandbox.yaml`) as typed calls.
 * Every call but `createAccount` acts on the account of the token it is given. A refused call
 * rejects with a {@link SandboxControlError}.
 *
 * @example
 * ```ts
 * const sandbox: SandboxControl = connectSandbox('http://127.0.0.1:4010');
 * const { token } = await sandbox.createAccount();
 * const [latest] = await sandbox.deliveries.list(token);
 * ```
 */
export interface SandboxControl {
  /** The origin, such as `http://127.0.0.1:4010`. */
  readonly url: string;
  /** The service API's base address: `url + '/rest/v1'`. */
  readonly apiUrl: string;
  /** `POST /_sandbox/accounts`: an isolated account (a dealer unless told otherwise) and its token. */
  createAccount(options?: AccountCreate): Promise<SandboxAccountCreated>;
  /** `POST /_sandbox/reset`: empties the account, keeping its tokens, clock and request log. */
  reset(token: string): Promise<void>;
  readonly tokens: {
    /** `POST /_sandbox/tokens`: another token of the account, with the given permissions. */
    create(token: string, input: TokenCreate): Promise<SandboxTokenCreated>;
    /** `DELETE /_sandbox/tokens/{id}`: revokes a token; the next request with it is a 401. */
    revoke(token: string, id: number): Promise<void>;
  };
  readonly books: {
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
    /** `POST /_sandbox/webhooks/{id}/ping`: delivers a `ping` event to the endpoint, now. */
    ping(token: string, id: number): Promise<SandboxDelivery>;
    /** `POST /_sandbox/webhooks/{id}/enable`: re-enables an endpoint disabled after failures. */
    enable(token: string, id: number): Promise<WebhookEndpoint>;
  };
  readonly receipts: {
    /** `GET /_sandbox/receipts/{id}/audit`: the receipt's audit trail, oldest first. */
    audit(token: string, id: number): Promise<AuditEntry[]>;
    /** `POST /_sandbox/receipts/{id}/documents`: attaches a document, as the service's web app does. */
    attachDocument(token: string, id: number, input: DocumentCreate): Promise<ReceiptDocument>;
    /** `PUT /_sandbox/receipts/{id}/e4473`: sets the receipt's E4473 data. */
    putE4473(token: string, id: number, input: E4473Put): Promise<Receipt>;
  };
  /** `GET /_sandbox/requests`: the account's last 100 API requests, newest first. */
  requests(token: string): Promise<SandboxRequestLogEntry[]>;
}
