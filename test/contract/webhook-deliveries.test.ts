import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { checkReceiver, startSandbox } from '@fflkit/sandbox';
import { dispositionWithAddressBody, receiptBody } from '@fflkit/test-fixtures';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { call } from '../support/sandbox-client';

// Every event of the `webhooks:` section of openapi/openapi.yaml is delivered by a real sandbox to
// a real receiver, and each request (its header parameters and its body) is checked against the
// contract with a JSON Schema validator, the schemas read from the document itself.

type Json = Record<string, any>;
const BASE = 'https://contract.fflkit.test/openapi.yaml';
const document = parse(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: true });
addFormats(ajv);
ajv.addSchema(document, BASE);

/** Follows `$ref`s within the document; answers the node and its JSON pointer. */
function resolve(node: Json, pointer: string): { node: Json; pointer: string } {
  const ref = node['$ref'];
  if (typeof ref !== 'string') return { node, pointer };
  const fragment = ref.slice(ref.indexOf('#') + 1);
  let value: any = document;
  for (const part of fragment.split('/').slice(1)) value = value[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  return resolve(value as Json, fragment);
}

/** The problems of one delivery request against the contract's operation for its event. */
function check(event: string, headers: IncomingHttpHeaders, body: string): string[] {
  const operation = document['webhooks']?.[event]?.['post'] as Json | undefined;
  if (operation === undefined) return [`the contract has no webhook ${event}`];
  const problems: string[] = [];
  (operation['parameters'] as Json[]).forEach((parameter, index) => {
    const { node, pointer } = resolve(parameter, `/webhooks/${event.replaceAll('/', '~1')}/post/parameters/${index}`);
    const value = headers[String(node['name']).toLowerCase()];
    if (value === undefined) {
      if (node['required']) problems.push(`header ${node['name']} is required`);
      return;
    }
    const validate = ajv.compile({ $ref: `${BASE}#${pointer}/schema` });
    if (!validate(value))
      problems.push(`header ${node['name']}: ${JSON.stringify(value)} ${validate.errors?.[0]?.message}`);
  });
  const { pointer } = resolve(operation['requestBody'] as Json, '');
  const validate = ajv.compile({ $ref: `${BASE}#${pointer}/content/application~1json/schema` });
  if (!validate(JSON.parse(body))) {
    problems.push(...(validate.errors ?? []).map((error) => `body${error.instancePath} ${error.message}`));
  }
  if (headers['content-type'] !== 'application/json') problems.push(`Content-Type ${headers['content-type']}`);
  return problems;
}

const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const waiting: (() => void)[] = [];
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    response.writeHead(204).end();
    for (const wake of waiting.splice(0)) wake();
  });
});
let sandbox: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  sandbox = await startSandbox({ rateLimit: 0 });
});
afterAll(async () => {
  await sandbox?.stop();
  receiver.closeAllConnections();
  await new Promise((done) => receiver.close(done));
});

async function receivedCount(count: number): Promise<void> {
  while (received.length < count) await new Promise<void>((wake) => waiting.push(wake));
}

it('delivers every webhook event of the contract, each request as the contract documents it', async () => {
  const { token } = await sandbox.createAccount();
  const api = (method: string, path: string, body?: unknown) => call(sandbox.apiUrl, method, path, { token, body });
  const { port } = receiver.address() as AddressInfo;
  const created = await api('POST', '/webhooks', { url: `http://127.0.0.1:${port}/hook`, events: ['*'] });
  const webhookId = (created.body as { data: { id: number } }).data.id;
  const id = ((await api('POST', '/receipts', receiptBody())).body as { data: { id: number } }).data.id;
  await api('PUT', `/receipts/${id}`, { model: 'Model 2' });
  await api('POST', `/receipts/${id}/dispose`, dispositionWithAddressBody());
  await api('DELETE', `/receipts/${id}`);
  await call(sandbox.url, 'POST', `/_sandbox/webhooks/${webhookId}/ping`, { token });
  await receivedCount(5);

  const events = Object.keys(document['webhooks'] as Json).sort();
  expect(received.map((request) => String(request.headers['x-svc-event'])).sort()).toEqual(events);
  for (const request of received) {
    expect(check(String(request.headers['x-svc-event']), request.headers, request.body), request.body).toEqual([]);
  }
  // The check can fail: a receipt.created request is not a valid receipt.deleted one.
  const createdRequest = received.find((request) => request.headers['x-svc-event'] === 'receipt.created');
  expect(check('receipt.deleted', createdRequest?.headers ?? {}, createdRequest?.body ?? '{}')).not.toEqual([]);
});

it('sends, from the receiver check, deliveries that the contract documents, but for the signatures it forges or leaves out', async () => {
  received.length = 0;
  const { port } = receiver.address() as AddressInfo;
  const report = await checkReceiver({
    url: `http://127.0.0.1:${port}/hook`,
    secret: 'whsec_c0ntractCheck000000000000000000000000',
  });
  expect(report.checks.map((check) => check.requests.length)).toEqual([1, 1, 1, 2, 2, 1]);
  expect(received).toHaveLength(8);
  for (const request of received) {
    const problems = check(String(request.headers['x-svc-event']), request.headers, request.body);
    const unsigned = request.headers['x-svc-signature'] === undefined;
    expect(problems, request.body.slice(0, 200)).toEqual(unsigned ? ['header X-SVC-Signature is required'] : []);
  }
});
