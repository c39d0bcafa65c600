import type { Receipt } from '@fflkit/types';
import { HttpResponse } from 'msw';
import { describe, expectTypeOf, it } from 'vitest';
import { createContractHttp } from '../../src/index';

const api = createContractHttp('https://logbook.example.test/rest/v1');

describe('createContractHttp(apiUrl)', () => {
  it('takes the contract paths of each method, written as the contract writes them', () => {
    api.get('/receipts/{id}', () => undefined);
    api.post('/receipts/{id}/dispose', () => undefined);
    api.delete('/webhooks/{id}', () => undefined);
    // @ts-expect-error: no such path in the contract
    api.get('/firearms', () => undefined);
    // @ts-expect-error: the contract has no PUT /books
    api.put('/books', () => undefined);
    // @ts-expect-error: MSW's own syntax is not the contract's
    api.get('/receipts/:id', () => undefined);
  });

  it('types the path parameters as MSW gives them: strings named as in the contract', () => {
    api.get('/receipts/{id}', ({ params }) => {
      expectTypeOf(params.id).toEqualTypeOf<string>();
      // @ts-expect-error: /receipts/{id} has no parameter `receipt`
      void params.receipt;
    });
  });

  it('types the request body from the contract', () => {
    api.post('/receipts', async ({ request }) => {
      const body = await request.json();
      expectTypeOf(body.serial_number).toEqualTypeOf<string>();
      // @ts-expect-error: ReceiptCreate has no `serial`
      void body.serial;
    });
  });

  it('accepts only bodies the contract lets the operation answer with', () => {
    const receipt = {} as Receipt;
    api.get('/receipts/{id}', () => HttpResponse.json({ data: receipt }));
    api.get('/receipts/{id}', () => HttpResponse.json({ message: 'Service unavailable.' }, { status: 503 }));
    api.get('/receipts/{id}', () => HttpResponse.error());
    // @ts-expect-error: GET /receipts/{id} answers { data: Receipt }, not a bare receipt
    api.get('/receipts/{id}', () => HttpResponse.json(receipt));
    // @ts-expect-error: not a body of the contract
    api.get('/books', () => HttpResponse.json({ books: [] }));
  });
});
