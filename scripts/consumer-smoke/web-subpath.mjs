// Run with plain `node`, no condition: @fflkit/webhooks/web is the web build (Web Crypto)
// through import and require, for runtimes that set none of the web conditions (Bun), while the
// bare name stays the Node build. It verifies and deduplicates as the Node build does.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as node from '@fflkit/webhooks';
import * as web from '@fflkit/webhooks/web';

const require = createRequire(import.meta.url);
assert.match(import.meta.resolve('@fflkit/webhooks/web'), /\/dist\/web\.js$/);
assert.match(require.resolve('@fflkit/webhooks/web'), /[\\/]dist[\\/]web\.cjs$/);
assert.match(import.meta.resolve('@fflkit/webhooks'), /\/dist\/index\.js$/);

const secret = 'whsec_consumer-smoke';
const body = '{"event":"ping","timestamp":"2026-03-14T15:00:00.001Z","data":{"webhook_id":1,"message":"Hello"}}';
const signature = await node.signPayload(secret, body);
for (const build of [web, require('@fflkit/webhooks/web')]) {
  assert.equal(await build.signPayload(secret, body), signature);
  assert.equal(await build.verifySignature(secret, body, signature), true);
  const pings = [];
  const webhooks = build.createWebhookHandler({ secret, on: { ping: (event) => void pings.push(event.data.message) } });
  const post = (deliveryId) =>
    webhooks.handle(
      new Request('https://hooks.example.test/in', {
        method: 'POST',
        body,
        headers: { 'x-svc-signature': signature, 'x-svc-delivery': deliveryId },
      }),
    );
  assert.equal((await post('a')).status, 200);
  assert.equal(
    (await (await post('b')).json()).outcome,
    'duplicate',
    'the same body under a new delivery id is a replay',
  );
  assert.deepEqual(pings, ['Hello']);
}
console.log(
  'Web subpath: @fflkit/webhooks/web resolves to the web build without conditions, and verifies as the Node build.',
);
