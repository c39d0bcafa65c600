// Run with `node --conditions=browser`: @fflkit/webhooks resolves to its web build (Web Crypto)
// through import and require, and signs exactly as its Node build does.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as esm from '@fflkit/webhooks';

const require = createRequire(import.meta.url);
assert.match(import.meta.resolve('@fflkit/webhooks'), /\/dist\/web\.js$/);
assert.match(require.resolve('@fflkit/webhooks'), /[\\/]dist[\\/]web\.cjs$/);
const node = await import('./node_modules/@fflkit/webhooks/dist/index.js');

const secret = 'whsec_consumer-smoke';
const body = '{"event":"ping","timestamp":"2026-03-14T15:00:00Z","data":{"webhook_id":1,"message":"Hello"}}';
const expected = await node.signPayload(secret, body);
for (const build of [esm, require('@fflkit/webhooks')]) {
  assert.equal(await build.signPayload(secret, body), expected);
  assert.equal(await build.verifySignature(secret, body, expected), true);
  assert.equal(await build.verifySignature(secret, `${body} `, expected), false);
}
console.log('Web build: @fflkit/webhooks resolves to it under the browser condition and signs as the Node build.');
