// The floor of the reads benchmark: a bare node:http server that answers every request with one
// recorded response (status, headers and body bytes), doing no work per request.
//   node bare-server.mjs --port 4011 --response response.json
// response.json: { "status": 200, "headers": { "content-type": "..." }, "body_base64": "..." }
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    response: { type: 'string' },
  },
});
if (!values.port || !values.response) {
  console.error('usage: node bare-server.mjs --port PORT --response FILE');
  process.exit(2);
}

const recorded = JSON.parse(readFileSync(values.response, 'utf8'));
const body = Buffer.from(recorded.body_base64, 'base64');
const headers = { ...recorded.headers, 'content-length': String(body.length) };

http
  .createServer((request, response) => {
    // The request body, if any, is drained so that keep-alive connections stay usable.
    request.resume();
    response.writeHead(recorded.status, headers);
    response.end(body);
  })
  .listen(Number(values.port), values.host, () => {
    console.log(`bare node:http server on http://${values.host}:${values.port}`);
  });
