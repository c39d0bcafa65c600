import { describe, expectTypeOf, it } from 'vitest';
import type {
  Book,
  DispositionCreate,
  ErrorBody,
  Page,
  Receipt,
  ReceiptCreate,
  ReceiptListQuery,
  ReceiptStatus,
  ReceiptUpdate,
  RequestBodyOf,
  SandboxLoggedRequest,
  SandboxReceiptBrowseQuery,
  SandboxReceiptExportQuery,
  SandboxReceiptPage,
  SandboxRequestFilter,
  SandboxWebhookEndpointState,
  SearchField,
  ServiceOperationId,
  ValidationErrorBody,
  WebhookEndpoint,
} from '@fflkit/types';

describe('named resources', () => {
  it('Receipt carries nullable optional fields and a nullable disposition', () => {
    expectTypeOf<Receipt['status']>().toEqualTypeOf<ReceiptStatus>();
    expectTypeOf<Receipt['ffl_license']>().toEqualTypeOf<string | null>();
    expectTypeOf<Receipt['purchase_amount']>().toEqualTypeOf<number | null>();
    expectTypeOf<Receipt['disposition']>().toExtend<object | null>();
    expectTypeOf<null>().toExtend<Receipt['disposition']>();
  });

  it('ReceiptCreate requires the description of the firearm and accepts an ffl_license', () => {
    const body: ReceiptCreate = {
      book: 'Main',
      serial_number: 'EXA-000123',
      manufacturer: 'Example Arms Co.',
      model: 'Model 1',
      type: 'Pistol',
      caliber: '9mm',
      receipt_date: '2025-03-14',
      received_from: 'Example Firearms Wholesale LLC',
      ffl_license: '9-99-999-01-6A-00001',
    };
    expectTypeOf(body).toExtend<ReceiptCreate>();
    // @ts-expect-error: serial_number is required
    const missing: ReceiptCreate = {
      book: 'Main',
      manufacturer: 'm',
      model: 'm',
      type: 't',
      caliber: 'c',
      receipt_date: '2025-03-14',
      received_from: 'r',
    };
    // @ts-expect-error: purchase_amount is a number, not a string
    const wrong: ReceiptCreate = { ...body, purchase_amount: '10.00' };
    expectTypeOf([missing, wrong]).toBeArray();
  });

  it('ReceiptUpdate makes every field optional', () => {
    expectTypeOf<{}>().toExtend<ReceiptUpdate>();
    expectTypeOf<{ model: string }>().toExtend<ReceiptUpdate>();
  });

  it('DispositionCreate requires the date and the recipient', () => {
    // @ts-expect-error: disposed_to is required
    const body: DispositionCreate = { disposition_date: '2025-03-20' };
    expectTypeOf(body).toExtend<DispositionCreate>();
  });

  it('Page<T> is the Laravel envelope', () => {
    expectTypeOf<Page<Book>['data']>().toEqualTypeOf<Book[]>();
    expectTypeOf<Page<Receipt>['meta']['total']>().toBeNumber();
    expectTypeOf<Page<Receipt>['links']['next']>().toEqualTypeOf<string | null>();
  });

  it('error bodies carry a message, and 422 bodies field messages', () => {
    expectTypeOf<ErrorBody['message']>().toBeString();
    expectTypeOf<ValidationErrorBody['errors']>().toEqualTypeOf<Record<string, string[]>>();
  });

  it('list queries accept only the documented parameters', () => {
    expectTypeOf<{ status: 'on_hand'; per_page: 200 }>().toExtend<ReceiptListQuery>();
    // @ts-expect-error: status has two values
    const query: ReceiptListQuery = { status: 'sold' };
    expectTypeOf(query).toExtend<ReceiptListQuery>();
    expectTypeOf<SearchField>().toEqualTypeOf<
      'serial_number' | 'manufacturer' | 'model' | 'type' | 'caliber' | 'received_from' | 'book'
    >();
  });
});

describe('the sandbox console calls', () => {
  it('SandboxReceiptBrowseQuery takes the list filters and the search, all optional', () => {
    expectTypeOf<{}>().toExtend<SandboxReceiptBrowseQuery>();
    expectTypeOf<{
      book: 'Main';
      status: 'disposed';
      q: 'EXA';
      field: 'serial_number';
      page: 2;
      per_page: 1000;
    }>().toExtend<SandboxReceiptBrowseQuery>();
    // @ts-expect-error: field is one of the seven search fields
    const query: SandboxReceiptBrowseQuery = { q: 'EXA', field: 'colour' };
    expectTypeOf(query).toExtend<SandboxReceiptBrowseQuery>();
  });

  it('SandboxReceiptExportQuery takes the same filters, without pages', () => {
    expectTypeOf<{ book: 'Main'; since: '2025-03-01T00:00:00Z'; q: 'EXA' }>().toExtend<SandboxReceiptExportQuery>();
    expectTypeOf<SandboxReceiptExportQuery>().not.toHaveProperty('per_page');
  });

  it('SandboxReceiptPage is the envelope of receipts', () => {
    expectTypeOf<SandboxReceiptPage['data']>().toEqualTypeOf<Receipt[]>();
    expectTypeOf<SandboxReceiptPage['meta']['per_page']>().toBeNumber();
  });

  it('SandboxWebhookEndpointState is an endpoint with its consecutive failures', () => {
    expectTypeOf<SandboxWebhookEndpointState>().toExtend<WebhookEndpoint>();
    expectTypeOf<SandboxWebhookEndpointState['consecutive_failures']>().toBeNumber();
  });
});

describe('the request log filters of the typed helpers', () => {
  it('ServiceOperationId names the operations of the service API and no webhook event', () => {
    expectTypeOf<'createReceipt'>().toExtend<ServiceOperationId>();
    expectTypeOf<'deleteWebhook'>().toExtend<ServiceOperationId>();
    // @ts-expect-error a webhook event is no operation a client calls
    expectTypeOf<'receiptCreatedWebhook'>().toExtend<ServiceOperationId>();
  });

  it('SandboxRequestFilter types body by the operation it names', () => {
    expectTypeOf<RequestBodyOf<'createReceipt'>>().toEqualTypeOf<ReceiptCreate>();
    expectTypeOf<RequestBodyOf<'disposeReceipt'>>().toEqualTypeOf<DispositionCreate>();
    expectTypeOf<RequestBodyOf<'getReceipt'>>().toBeNever();
    const filter: SandboxRequestFilter<'createReceipt'> = {
      operation: 'createReceipt',
      body: { serial_number: 'EXA1' },
      status: 201,
    };
    expectTypeOf(filter.body).toExtend<Partial<ReceiptCreate> | undefined>();
    // @ts-expect-error a receipt has no field of that name
    const misspelt: SandboxRequestFilter<'createReceipt'> = { operation: 'createReceipt', body: { serial: 'EXA1' } };
    expectTypeOf<SandboxLoggedRequest<'createReceipt'>['body']>().toEqualTypeOf<ReceiptCreate | null>();
    void misspelt;
  });
});
