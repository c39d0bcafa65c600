// The framework's floor in the reads benchmark: a bare Hapi route answering every GET of
// /rest/v1/receipts with one recorded response (status, headers and body bytes), doing no work
// of its own. It runs the sandbox's own copy of @hapi/hapi, with the server options the sandbox
// chooses (no compression, no cookie parsing, no ranges), so that the gap between this row and
// the sandbox's is the sandbox's, and the gap between this row and bare node:http is Hapi's.
//   node bare-hapi-server.mjs --port 4012 --response response.json
// response.json: { "status": 200, "headers": { "content-type": "..." }, "body_base64": "..." }
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    response: { type: 'string' },
  },
});
if (!values.port || !values.response) {
  console.error('usage: node bare-hapi-server.mjs --port PORT --response FILE');
  process.exit(2);
}

const Hapi = createRequire(new URL('../packages/sandbox/package.json', import.meta.url))('@hapi/hapi');
const recorded = JSON.parse(readFileSync(values.response, 'utf8'));
const body = Buffer.from(recorded.body_base64, 'base64');
const headers = Object.entries(recorded.headers).filter(([name]) => name !== 'content-type');

const server = Hapi.server({
  port: Number(values.port),
  host: values.host,
  debug: false,
  compression: false,
  routes: { state: { parse: false, failAction: 'ignore' }, response: { ranges: false } },
});
server.route({
  method: 'GET',
  path: '/rest/v1/receipts',
  handler: (_request, h) => {
    const response = h
      .response(body)
      .code(recorded.status)
      .type(recorded.headers['content-type'] ?? 'application/json');
    for (const [name, value] of headers) response.header(name, value);
    return response;
  },
});
await server.start();
console.log(`bare Hapi server on http://${values.host}:${values.port}`);
