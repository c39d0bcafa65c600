import {
  ApiError,
  LogbookClient,
  LogbookError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  OutcomeUnknownError,
  PermissionDeniedError,
  TimeoutError,
  type LogbookClientOptions,
  type Receipt,
} from '@fflkit/sdk';
import { receiptBody } from '@fflkit/test-fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FakeClock } from './support/fake-clock';
import { AFTER_ACTING, FaultyService, type Fault } from './support/faulty-service';
import { json } from './support/stub-fetch';
import { BASE_URL } from './support/test-client';

let tokens = 0;

/** A client of `service` on a fake clock, the limiter off and the back-off without jitter. */
function clientOf(service: FaultyService, options: LogbookClientOptions = {}) {
  const clock = new FakeClock();
  const logbook = new LogbookClient({
    token: `recovery-${++tokens}`,
    baseUrl: BASE_URL,
    fetch: service.fetch,
    clock,
    random: () => 0,
    rateLimit: false,
    ...options,
  });
  return { logbook, clock };
}

/** Fails the requests of `method path` as `faults` says, in order; answers every other request. */
function failing(method: string, path: string, ...faults: Fault[]) {
  let seen = 0;
  return (m: string, p: string): Fault => (m === method && p === path ? (faults[seen++] ?? 'ok') : 'ok');
}

const disposition = { disposition_date: '2025-04-02', disposed_to: 'John Q. Example', form_4473_serial: '2025-000123' };
const hook = { url: 'https://pos.example.com/hooks', events: ['receipt.created' as const] };

describe('receipts.create(body) after a failure after which the service may have acted', () => {
  it.each(AFTER_ACTING)(
    'returns the receipt the attempt recorded (%s), found by serial number in the book, and sends nothing more',
    async (fault) => {
      const service = new FaultyService(failing('POST', '/receipts', fault));
      const { logbook, clock } = clientOf(service);
      const created = await clock.settle(logbook.receipts.create(receiptBody({ serial_number: ' EXA-1 ' })));
      expect(service.withSerial('EXA-1')).toEqual([created]);
      expect(service.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
        'POST /receipts',
        'GET /receipts',
      ]);
    },
  );

  it("lets go of the failed answer's body once the look-up found the receipt, freeing its connection", async () => {
    const service = new FaultyService();
    let cancelled = false;
    const body = new ReadableStream({ cancel: () => void (cancelled = true) });
    const { logbook, clock } = clientOf(service, {
      fetch: async (url, init) => {
        if (init.method !== 'POST') return service.fetch(url, init);
        await service.fetch(url, init);
        return new Response(body, { status: 502 });
      },
    });
    await clock.settle(logbook.receipts.create(receiptBody({ serial_number: 'EXA-0' })));
    expect(cancelled).toBe(true);
  });

  it('looks up GET /receipts?serial_number=&book=&per_page=200, after the back-off', async () => {
    const service = new FaultyService(failing('POST', '/receipts', '502-after'));
    const urls: string[] = [];
    const { logbook, clock } = clientOf(service, {
      fetch: (url, init) => {
        urls.push(url);
        return service.fetch(url, init);
      },
    });
    await clock.settle(logbook.receipts.create(receiptBody({ serial_number: 'EXA 2', book: 'Range' })));
    expect(urls[1]).toBe(`${BASE_URL}/receipts?serial_number=EXA%202&book=Range&per_page=200&page=1`);
    expect(clock.delays).toEqual([30_000, 500, 30_000]);
  });

  it.each(['refused', '502'] as const)(
    'sends it again when the look-up finds nothing (%s before acting), and records it once',
    async (fault) => {
      const service = new FaultyService(failing('POST', '/receipts', fault));
      const { logbook, clock } = clientOf(service);
      const created = await clock.settle(logbook.receipts.create(receiptBody({ serial_number: 'EXA-3' })));
      expect(service.withSerial('EXA-3')).toEqual([created]);
      expect(service.requests.map(({ method }) => method)).toEqual(['POST', 'GET', 'POST']);
    },
  );

  it('skips a receipt of the same firearm that is disposed, or whose fields differ, and records a new one', async () => {
    const service = new FaultyService(failing('POST', '/receipts', '502'));
    service.add(receiptBody({ serial_number: 'EXA-4' }), { status: 'disposed' });
    service.add(receiptBody({ serial_number: 'EXA-4', receipt_date: '2025-01-02' }));
    service.add(receiptBody({ serial_number: 'EXA-40' }));
    const { logbook, clock } = clientOf(service);
    const created = await clock.settle(logbook.receipts.create(receiptBody({ serial_number: 'EXA-4' })));
    expect(created.id).toBe(4);
    expect(service.withSerial('EXA-4')).toHaveLength(3);
  });

  it('rejects with the last failure, saying the look-ups found nothing, when every attempt fails before acting', async () => {
    const service = new FaultyService(failing('POST', '/receipts', '502', '502', '502'));
    const { logbook, clock } = clientOf(service);
    const error = await clock
      .settle(logbook.receipts.create(receiptBody({ serial_number: 'EXA-5' })))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toBe(
      '502 Bad Gateway (a look-up found nothing it recorded, but a real service may show it late: look before sending it again)',
    );
    expect(service.requests.map(({ method }) => method)).toEqual(['POST', 'GET', 'POST', 'GET', 'POST', 'GET']);
    expect(service.withSerial('EXA-5')).toEqual([]);
  });

  it('with maxRetries: 0, looks once and returns what the one attempt recorded', async () => {
    const service = new FaultyService(failing('POST', '/receipts', 'dropped'));
    const { logbook, clock } = clientOf(service, { maxRetries: 0 });
    const created = await clock.settle(logbook.receipts.create(receiptBody({ serial_number: 'EXA-6' })));
    expect(service.withSerial('EXA-6')).toEqual([created]);
  });

  it('rejects a refused connection with its cause and what to do, when nothing was recorded', async () => {
    const service = new FaultyService(failing('POST', '/receipts', 'refused'));
    const { logbook, clock } = clientOf(service, { maxRetries: 0 });
    const error = await clock
      .settle(logbook.receipts.create(receiptBody({ serial_number: 'EXA-7' })))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain(
      '(connect ECONNREFUSED 127.0.0.1:4010) on attempt 1 (a look-up found nothing it recorded',
    );
  });

  it('rejects with an OutcomeUnknownError saying that recovery needs read, when the look-up is 403', async () => {
    const service = new FaultyService(failing('POST', '/receipts', '502-after'));
    const { logbook, clock } = clientOf(service, {
      fetch: async (url, init) =>
        init.method === 'GET'
          ? json(403, { message: 'This action requires the read permission.' })
          : service.fetch(url, init),
    });
    const error = await clock
      .settle(logbook.receipts.create(receiptBody({ serial_number: 'EXA-8' })))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(PermissionDeniedError);
    expect((error as Error).message).toBe(
      `POST ${BASE_URL}/receipts: outcome unknown: its answer was lost (502) and the look-up that tells whether it was recorded (GET /receipts?serial_number=EXA-8&book=Main) failed: 403 This action requires the read permission. (use a key with the permission this method needs). Look for it before sending it again; never send it again as it is; recovery needs the read permission: use a key with read, or pass recover: false`,
    );
    expect(service.withSerial('EXA-8')).toHaveLength(1);
  });

  it.each(['502', 'dropped', 'timeout'] as const)(
    'rejects with an OutcomeUnknownError, no status to retry on, when the answer is lost and the look-up fails (%s)',
    async (lookupFault) => {
      const service = new FaultyService((method, _path, index) =>
        method === 'POST' ? (index === 0 ? '502-after' : 'ok') : lookupFault,
      );
      const { logbook, clock } = clientOf(service, { timeout: 1_000 });
      const body = receiptBody({ serial_number: 'EXA-11' });
      const error = (await clock.settle(logbook.receipts.create(body)).catch((e: unknown) => e)) as OutcomeUnknownError;
      expect(error).toBeInstanceOf(OutcomeUnknownError);
      expect(error).toBeInstanceOf(LogbookError);
      expect(error).not.toBeInstanceOf(ApiError);
      expect(error).not.toBeInstanceOf(ConnectionError);
      expect(error.name).toBe('OutcomeUnknownError');
      expect(error.request).toEqual({ method: 'POST', url: `${BASE_URL}/receipts`, body: JSON.stringify(body) });
      expect(error.lookup).toBe('GET /receipts?serial_number=EXA-11&book=Main');
      expect(error.cause).toBeInstanceOf(lookupFault === '502' ? InternalServerError : ConnectionError);
      // Recorded once, and never sent again: the look-up was retried, the create was not.
      expect(service.withSerial('EXA-11')).toHaveLength(1);
      expect(service.requests.map(({ method }) => method)).toEqual(['POST', 'GET', 'GET', 'GET']);
    },
  );

  it('with recover: false, throws the failure at once, saying the service may have acted', async () => {
    const service = new FaultyService(failing('POST', '/receipts', '502-after'));
    const { logbook, clock } = clientOf(service, { recover: false });
    const error = await clock
      .settle(logbook.receipts.create(receiptBody({ serial_number: 'EXA-9' })))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toBe('502 Bad Gateway (the service may have acted: look before sending it again)');
    expect(service.requests).toHaveLength(1);
  });
});

describe('receipts.dispose(id, body) after a failure after which the service may have acted', () => {
  it.each(AFTER_ACTING)(
    'returns the receipt disposed as sent (%s), read with GET, and disposes of it once',
    async (fault) => {
      const service = new FaultyService(failing('POST', '/receipts/1/dispose', fault));
      const { id } = service.add(receiptBody());
      const { logbook, clock } = clientOf(service);
      const disposed = await clock.settle(logbook.receipts.dispose(id, disposition));
      expect(disposed).toEqual(service.receipts.get(id));
      expect(disposed.disposition).toMatchObject(disposition);
      expect(service.dispositions.get(id)).toBe(1);
      expect(service.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
        'POST /receipts/1/dispose',
        'GET /receipts/1',
      ]);
    },
  );

  it('sends it again when the receipt is still on hand', async () => {
    const service = new FaultyService(failing('POST', '/receipts/1/dispose', 'refused'));
    const { id } = service.add(receiptBody());
    const { logbook, clock } = clientOf(service);
    await clock.settle(logbook.receipts.dispose(id, disposition));
    expect(service.dispositions.get(id)).toBe(1);
    expect(service.requests.map(({ method }) => method)).toEqual(['POST', 'GET', 'POST']);
  });

  it('rejects with an OutcomeUnknownError naming the receipt read, when that read fails', async () => {
    const service = new FaultyService((method, _path, index) =>
      method === 'POST' ? (index === 0 ? '502-after' : 'ok') : '502',
    );
    const { id } = service.add(receiptBody());
    const { logbook, clock } = clientOf(service);
    const error = (await clock
      .settle(logbook.receipts.dispose(id, disposition))
      .catch((e: unknown) => e)) as OutcomeUnknownError;
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error.lookup).toBe('GET /receipts/1');
    expect(service.dispositions.get(id)).toBe(1);
  });

  it('sends it again when the receipt was disposed of otherwise (the service then answers for itself)', async () => {
    const service = new FaultyService(failing('POST', '/receipts/1/dispose', '502'));
    const { id } = service.add(receiptBody(), {
      status: 'disposed',
      disposition: {
        ...disposition,
        disposed_to: 'Someone Else',
        address: null,
        city: null,
        state: null,
        zip: null,
        sold_price: null,
        nics_ccw: null,
        created_at: '2025-04-01T10:00:00Z',
      },
    });
    const { logbook, clock } = clientOf(service);
    await clock.settle(logbook.receipts.dispose(id, disposition));
    expect(service.requests.map(({ method }) => method)).toEqual(['POST', 'GET', 'POST']);
  });
});

describe('webhooks.create(body) and delete(id) after a failure after which the service may have acted', () => {
  it.each(AFTER_ACTING)(
    'deletes the endpoint whose secret was lost (%s) and creates it again, keeping one made before',
    async (fault) => {
      const service = new FaultyService(failing('POST', '/webhooks', fault));
      const earlier = service.addEndpoint(hook);
      const { logbook, clock } = clientOf(service);
      const { endpoint, secret } = await clock.settle(logbook.webhooks.create(hook));
      expect([...service.endpoints.values()]).toEqual([earlier, endpoint]);
      expect(secret).toBe(service.secrets.get(endpoint.id));
      expect(service.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
        'GET /webhooks',
        'POST /webhooks',
        'GET /webhooks',
        'DELETE /webhooks/2',
        'POST /webhooks',
      ]);
    },
  );

  it('rejects with an OutcomeUnknownError when the endpoint a lost attempt made cannot be deleted', async () => {
    const service = new FaultyService((method, path) =>
      method === 'POST' && path === '/webhooks' ? '502-after' : method === 'DELETE' ? '502' : 'ok',
    );
    const { logbook, clock } = clientOf(service);
    const error = (await clock.settle(logbook.webhooks.create(hook)).catch((e: unknown) => e)) as OutcomeUnknownError;
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error.lookup).toBe('GET /webhooks, then DELETE of each endpoint a lost attempt made');
    expect(error.cause).toBeInstanceOf(InternalServerError);
    expect(service.requests.filter(({ method }) => method === 'POST')).toHaveLength(1);
  });

  it('rejects before sending anything when the token cannot list the endpoints, saying so', async () => {
    const service = new FaultyService();
    const { logbook } = clientOf(service, {
      fetch: async () => json(403, { message: 'This action requires the read permission.' }),
    });
    const error = await logbook.webhooks.create(hook).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as Error).message).toContain(
      '[POST /webhooks: nothing was sent; recovery needs the read permission: use a key with read, or pass recover: false]',
    );
  });

  it('with recover: false, lists nothing first', async () => {
    const service = new FaultyService();
    const { logbook } = clientOf(service, { recover: false });
    await logbook.webhooks.create(hook);
    expect(service.requests.map(({ method }) => method)).toEqual(['POST']);
  });

  it.each([
    ['webhooks', (logbook: LogbookClient, id: number) => logbook.webhooks.delete(id)],
    ['receipts', (logbook: LogbookClient, id: number) => logbook.receipts.delete(id)],
  ] as const)('%s.delete(id) takes a 404 to its retry after a dropped answer as done', async (collection, remove) => {
    const service = new FaultyService(failing('DELETE', `/${collection}/1`, 'dropped'));
    const id = collection === 'webhooks' ? service.addEndpoint(hook).id : service.add(receiptBody()).id;
    const { logbook, clock } = clientOf(service);
    await expect(clock.settle(remove(logbook, id))).resolves.toBeUndefined();
    expect(service.requests.map(({ method }) => method)).toEqual(['DELETE', 'DELETE']);
  });

  it('delete(id) still rejects a 404 with NotFoundError when no attempt failed, or when recovery is off', async () => {
    const service = new FaultyService(failing('DELETE', '/webhooks/9', 'dropped'));
    await expect(clientOf(service).logbook.webhooks.delete(8)).rejects.toBeInstanceOf(NotFoundError);
    const { logbook, clock } = clientOf(service, { recover: false });
    await expect(clock.settle(logbook.webhooks.delete(9))).rejects.toBeInstanceOf(NotFoundError);
  });
});

// Every request of a run meets the next fault of its plan; requests past the plan are answered.
const plans = fc.array(fc.constantFrom<Fault>('ok', 'ok', 'refused', '502', 'dropped', 'timeout', '502-after'), {
  maxLength: 24,
});

/** Runs creates, dispositions and webhook creations of distinct firearms and URLs under `plan`. */
async function run(plan: Fault[], onlyWrites: boolean, maxRetries: number) {
  let next = 0;
  const service = new FaultyService((method) => (onlyWrites && method === 'GET' ? 'ok' : (plan[next++] ?? 'ok')));
  // Receipts recorded earlier, never to be taken for a new one: the same firearm disposed of,
  // another acquisition of a firearm (another date), a serial number that holds another.
  service.add(receiptBody({ serial_number: 'RUN-1' }), { status: 'disposed' });
  service.add(receiptBody({ serial_number: 'RUN-2', receipt_date: '2024-12-01' }));
  service.add(receiptBody({ serial_number: 'RUN-30' }));
  const earlier = service.addEndpoint({ url: 'https://pos.example.com/run/1', events: ['*'] });
  const { logbook, clock } = clientOf(service, { maxRetries });
  const outcome = async <T>(call: Promise<T>) =>
    clock.settle(call).then(
      (value) => ({ value }),
      (error: unknown) => ({ error: error as Error }),
    );
  // An unknown outcome says so with its own class, which is no status a retry helper acts on.
  const unknown = (error: Error | undefined) => {
    if (!(error instanceof OutcomeUnknownError)) return false;
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    return true;
  };

  for (let n = 1; n <= 3; n++) {
    const serial = `RUN-${n}`;
    const before = service.withSerial(serial).length;
    const created = await outcome(logbook.receipts.create(receiptBody({ serial_number: serial })));
    const made = service.withSerial(serial).slice(before);
    // No duplicate, ever; exactly the one returned on success; none on a failure that says so.
    expect(made.length).toBeLessThanOrEqual(1);
    if ('value' in created) expect(made).toEqual([created.value]);
    else {
      expect(created.error).toBeInstanceOf(LogbookError);
      if (!unknown(created.error)) expect(made).toEqual([]);
    }
    const receipt: Receipt | undefined = made[0];
    if (receipt === undefined) continue;
    const disposed = await outcome(
      logbook.receipts.dispose(receipt.id, { ...disposition, form_4473_serial: `F-${n}` }),
    );
    expect(service.dispositions.get(receipt.id) ?? 0).toBeLessThanOrEqual(1);
    if ('value' in disposed) expect(disposed.value).toEqual(service.receipts.get(receipt.id));
    else if (!unknown(disposed.error)) expect(service.dispositions.get(receipt.id)).toBeUndefined();

    const url = `https://pos.example.com/run/${n}`;
    const endpoints = await outcome(logbook.webhooks.create({ url, events: ['*'] }));
    const live = [...service.endpoints.values()].filter(
      (endpoint) => endpoint.url === url && endpoint.id !== earlier.id,
    );
    // No endpoint whose secret was never seen: the one returned, or none, unless the error says.
    if ('value' in endpoints) {
      expect(live).toEqual([endpoints.value.endpoint]);
      expect(endpoints.value.secret).toBe(service.secrets.get(endpoints.value.endpoint.id));
    } else if (!unknown(endpoints.error)) expect(live).toEqual([]);
    expect(service.endpoints.get(earlier.id)).toEqual(earlier);
  }
  expect(clock.pending).toBe(0);
}

describe('recovery under random faults (seeded)', () => {
  it('makes no duplicate receipt, no second disposition and no endpoint with an unseen secret when only the writes fail', async () => {
    await fc.assert(
      fc.asyncProperty(plans, fc.integer({ min: 0, max: 3 }), (plan, maxRetries) => run(plan, true, maxRetries)),
      { numRuns: 300, seed: 17 },
    );
  });

  it('does the same when the look-ups fail too, leaving a record only where the error says the outcome is unknown', async () => {
    await fc.assert(
      fc.asyncProperty(plans, fc.integer({ min: 0, max: 3 }), (plan, maxRetries) => run(plan, false, maxRetries)),
      { numRuns: 300, seed: 18 },
    );
  });
});
