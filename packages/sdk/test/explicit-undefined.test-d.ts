// The README's snippets, with each optional value typed `T | undefined` as an integrator's
// configuration gives it, compiled under the repository's strict tsconfig
// (`exactOptionalPropertyTypes` on): an explicit `undefined` means "not given" everywhere.
import {
  LogbookClient,
  type AllowUndefined,
  type LogbookClientOptions,
  type Clock,
  type FetchFunction,
  type Wait,
  type ReceiptListQuery,
  type RequestOptions,
  type SearchQuery,
  type SyncCheckpoint,
} from '@fflkit/sdk';
import { describe, expectTypeOf, it } from 'vitest';

declare const maybe: {
  string: string | undefined;
  number: number | undefined;
  fetch: FetchFunction | undefined;
  clock: Clock | undefined;
  random: (() => number) | undefined;
  onWait: ((wait: Wait) => void) | undefined;
  boolean: boolean | undefined;
  rateLimit: boolean | { perMinute: number } | undefined;
  signal: AbortSignal | undefined;
  field: SearchQuery['field'] | undefined;
  status: ReceiptListQuery['status'] | undefined;
  checkpoint: SyncCheckpoint | null | undefined;
};

describe('exactOptionalPropertyTypes is on here', () => {
  it('so the contract type alone refuses an explicit undefined that the SDK accepts', () => {
    // @ts-expect-error: ReceiptListQuery, from the generated contract, has `per_page?: number`
    const strict: ReceiptListQuery = { per_page: maybe.number };
    const accepted: AllowUndefined<ReceiptListQuery> = { per_page: maybe.number };
    void [strict, accepted];
  });
});

describe('the client options accept an explicit undefined', () => {
  it('compiles the README first snippet with the token read from the environment', () => {
    const logbook = new LogbookClient({
      token: process.env['FFLKIT_TOKEN'],
      baseUrl: 'https://logbook.example.com/rest/v1',
    });
    expectTypeOf(logbook).toEqualTypeOf<LogbookClient>();
  });

  it('takes every option as T | undefined', () => {
    const options: LogbookClientOptions = {
      baseUrl: maybe.string,
      token: maybe.string,
      fetch: maybe.fetch,
      timeout: maybe.number,
      maxRetries: maybe.number,
      maxRetryAfter: maybe.number,
      rateLimit: maybe.rateLimit,
      userAgent: maybe.string,
      clock: maybe.clock,
      random: maybe.random,
      maxQueueWait: maybe.number,
      onWait: maybe.onWait,
      recover: maybe.boolean,
    };
    void new LogbookClient(options);
    void new LogbookClient({ token: maybe.string, timeout: maybe.number, rateLimit: maybe.rateLimit });
  });

  it('still refuses what is not an option, and a budget without its number', () => {
    // @ts-expect-error: the option is maxRetries
    void new LogbookClient({ retries: maybe.number });
    // @ts-expect-error: { perMinute } needs its number
    void new LogbookClient({ rateLimit: { perMinute: maybe.number } });
  });
});

describe('the call options and list parameters accept an explicit undefined', () => {
  const logbook = new LogbookClient({ token: 'sbx_token', baseUrl: 'https://logbook.example.com/rest/v1' });

  it('takes { signal } as AbortSignal | undefined on every method', () => {
    const options: RequestOptions = { signal: maybe.signal };
    void logbook.receipts.get(1042, { signal: maybe.signal });
    void logbook.books.list(options);
    void logbook.webhooks.delete(7, { signal: maybe.signal });
    void logbook.receipts.changesSince(maybe.checkpoint, { signal: maybe.signal });
  });

  it('takes page, per_page and the filters as T | undefined, where the SDK declares the parameters', () => {
    void logbook.receipts.list({
      status: maybe.status,
      book: maybe.string,
      page: maybe.number,
      per_page: maybe.number,
    });
    void logbook.receipts.iterate({ status: 'on_hand', per_page: maybe.number });
    void logbook.inventory.list({ book: maybe.string, per_page: maybe.number });
    void logbook.inventory.iterate({ per_page: maybe.number }).pages();
    void logbook.search.list({ q: 'glock', field: maybe.field, page: maybe.number, per_page: maybe.number });
    void logbook.search.iterate({ q: 'SDK', per_page: maybe.number });
  });

  it('still requires what the contract requires, and iterate() still sets the page itself', () => {
    // @ts-expect-error: search needs q
    void logbook.search.list({ q: maybe.string });
    // @ts-expect-error: iterate() starts at page 1 by itself
    void logbook.receipts.iterate({ page: maybe.number });
    // @ts-expect-error: status is on_hand or disposed
    void logbook.receipts.list({ status: maybe.string });
  });

  it('keeps the contract types of what the methods resolve with', () => {
    expectTypeOf<AllowUndefined<SearchQuery>['q']>().toEqualTypeOf<string>();
    expectTypeOf<AllowUndefined<ReceiptListQuery>['per_page']>().toEqualTypeOf<number | undefined>();
  });
});
