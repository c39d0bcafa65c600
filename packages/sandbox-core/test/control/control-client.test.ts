import {
  type ControlAnswer,
  type ControlFailure,
  type ControlRequest,
  createControlCalls,
  createControlClient,
} from '@fflkit/sandbox-core/control';
import { describe, expect, it } from 'vitest';

/** A client whose every call is answered `answer`, keeping the requests it sent. */
function clientAnswering(answer: ControlAnswer | Error) {
  const sent: ControlRequest[] = [];
  const failures: ControlFailure[] = [];
  const fail = (failure: ControlFailure): Error => {
    failures.push(failure);
    return new Error(failure.message);
  };
  const client = createControlClient({
    send: (request) => {
      sent.push(request);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
    fail,
    target: 'http://sandbox.test',
  });
  return { client, calls: createControlCalls(client, fail), sent, failures };
}

const json = (status: number, body: unknown): ControlAnswer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body,
});

describe('createControlClient(options).call(method, path, options)', () => {
  it('sends the path with its parameters encoded, the query given, the token and the JSON body', async () => {
    const { client, sent } = clientAnswering(json(200, { data: { id: 'a b' } }));
    await client.call('post', '/_sandbox/deliveries/{id}/redeliver', { token: 'sbx_t', path: { id: 'a b/c' } });
    await client.call('get', '/_sandbox/deliveries', {
      token: 'sbx_t',
      query: { state: 'failed', webhook_id: undefined },
    });
    await client.call('post', '/_sandbox/clock/advance', { token: 'sbx_t', body: { seconds: 60 } });
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/_sandbox/deliveries/a%20b%2Fc/redeliver',
        query: '',
        headers: { accept: 'application/json, text/csv', authorization: 'Bearer sbx_t' },
        body: undefined,
      },
      {
        method: 'GET',
        path: '/_sandbox/deliveries',
        query: 'state=failed',
        headers: { accept: 'application/json, text/csv', authorization: 'Bearer sbx_t' },
        body: undefined,
      },
      {
        method: 'POST',
        path: '/_sandbox/clock/advance',
        query: '',
        headers: {
          accept: 'application/json, text/csv',
          authorization: 'Bearer sbx_t',
          'content-type': 'application/json',
        },
        body: '{"seconds":60}',
      },
    ]);
  });

  it('resolves with the success body, and with undefined for a 204', async () => {
    expect(await clientAnswering(json(200, { data: { now: 'x' } })).client.call('get', '/_sandbox/clock')).toEqual({
      data: { now: 'x' },
    });
    const deleted = clientAnswering({ status: 204, headers: {}, body: undefined });
    expect(await deleted.client.call('delete', '/_sandbox/faults', { token: 't' })).toBeUndefined();
  });

  it('fails a refusal with its status, its body and the call with the sandbox message', async () => {
    const { client, failures } = clientAnswering(json(422, { message: 'The seconds field is required.', errors: {} }));
    await expect(client.call('post', '/_sandbox/clock/advance', { token: 't', body: { seconds: 0 } })).rejects.toThrow(
      'POST /_sandbox/clock/advance answered 422: The seconds field is required.',
    );
    expect(failures).toEqual([
      {
        status: 422,
        body: { message: 'The seconds field is required.', errors: {} },
        message: 'POST /_sandbox/clock/advance answered 422: The seconds field is required.',
      },
    ]);
  });

  it('fails with status 0 and the cause when no answer came', async () => {
    const cause = new TypeError('fetch failed');
    const { client, failures } = clientAnswering(cause);
    await expect(client.call('get', '/_sandbox/clock', { token: 't' })).rejects.toThrow(
      'GET /_sandbox/clock: no answer from http://sandbox.test; is the sandbox running?',
    );
    expect(failures[0]).toMatchObject({ status: 0, body: undefined, cause });
  });

  it('fails a success that is not JSON, or an export that is not CSV, as an answer of something else', async () => {
    const html = { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>' };
    await expect(clientAnswering(html).client.call('get', '/_sandbox/clock', { token: 't' })).rejects.toThrow(
      'GET /_sandbox/clock answered 200 without JSON: is http://sandbox.test a FFLKit sandbox?',
    );
    await expect(
      clientAnswering(html).client.call('get', '/_sandbox/receipts/export', { token: 't', query: { book: 'Main' } }),
    ).rejects.toThrow(
      'GET /_sandbox/receipts/export?book=Main answered 200 without CSV: is http://sandbox.test a FFLKit sandbox?',
    );
    const csv = { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' }, body: 'a,b\r\n' };
    expect(await clientAnswering(csv).client.call('get', '/_sandbox/receipts/export', { token: 't' })).toBe('a,b\r\n');
  });
});

describe('createControlCalls(client, fail).requests(token, filter)', () => {
  it('sends the body filter as JSON text, and fails a log that dropped entries the filter could match', async () => {
    const log = { data: [], truncated: true, dropped: 3 };
    const { calls, sent, failures } = clientAnswering(json(200, log));
    await expect(calls.requests('t', { operation: 'createReceipt', body: { serial_number: 'S1' } })).rejects.toThrow(
      'the request log dropped entries this filter could match',
    );
    expect(sent[0]?.query).toBe('operation=createReceipt&body=%7B%22serial_number%22%3A%22S1%22%7D');
    expect(failures[0]).toMatchObject({
      status: 200,
      body: log,
      message: expect.stringMatching(/^GET \/_sandbox\/requests\?operation=createReceipt&body=\S+: the request log/),
    });
  });

  it('resolves with the entries of a log that dropped none the filter could match', async () => {
    const entry = { id: 1, method: 'GET' };
    const { calls } = clientAnswering(json(200, { data: [entry], truncated: false, dropped: 5 }));
    expect(await calls.requests('t', { from: '2025-01-01T00:00:00Z' })).toEqual([entry]);
  });
});
