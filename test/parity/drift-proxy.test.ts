import { createHash } from 'node:crypto';
import { startDriftProxy } from '@fflkit/sandbox';
import { describe, expect, it } from 'vitest';
import { type ExchangeHashes, startByteTap } from '../support/byte-tap';
import { startSandboxFace } from './faces/start-sandbox-face';
import { startWebhookReceiver } from './faces/start-webhook-receiver';
import { runScenario } from './run-scenario';
import type { Scenario } from './scenario';
import { ScenarioContext } from './scenario-context';
import { scenarios } from './scenarios/all-scenarios';
import { normaliseTranscript } from './transcript/normalise-transcript';
import { Transcript } from './transcript/transcript';

// Every parity scenario again, with the drift proxy between the integration and the sandbox (its
// API calls and the sandbox's webhook deliveries both go through it): the sandbox keeps to the
// contract, so the proxy finds no violation in all that traffic; the integration sees what it
// sees without the proxy; and a tap between the proxy and the sandbox shows, by their hashes,
// that every request and answer body crossed the proxy unchanged.

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Runs a scenario through a drift proxy; answers its normalised transcript, the proxy's report and the hashes of each side. */
async function runThroughProxy(scenario: Scenario) {
  const receiver = await startWebhookReceiver();
  const face = await startSandboxFace({ rateLimit: scenario.rateLimit, fixtures: scenario.fixtures });
  const tap = await startByteTap(face.origin);
  const proxy = await startDriftProxy({ upstream: tap.url, webhooksTo: receiver.origin });
  const transcript = new Transcript();
  // What the integration sent and got, by the X-Exchange each of its API calls carries.
  const sent = new Map<string, ExchangeHashes>();
  const fetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (input instanceof Request || !url.startsWith(proxy.apiUrl)) return fetch(input, init);
    const id = String(sent.size + 1);
    const headers = new Headers(init?.headers);
    headers.set('x-exchange', id);
    const body = typeof init?.body === 'string' ? Buffer.from(init.body) : Buffer.alloc(0);
    const response = await fetch(input, { ...init, headers });
    sent.set(id, { request: sha256(body), response: sha256(new Uint8Array(await response.clone().arrayBuffer())) });
    return response;
  };
  try {
    await scenario.run(
      new ScenarioContext(
        { ...face, apiUrl: proxy.apiUrl },
        { origin: proxy.origin, received: receiver.received, close: () => receiver.close() },
        transcript,
      ),
    );
  } finally {
    globalThis.fetch = fetch;
    await proxy.stop();
    await Promise.all([tap.stop(), face.stop(), receiver.close()]);
  }
  return {
    transcript,
    normalised: normaliseTranscript(transcript.entries, { origin: face.origin, receiver: proxy.origin }),
    report: proxy.report(),
    sent,
    tapped: tap.exchanges,
  };
}

describe('the drift proxy in front of the sandbox, over every parity scenario', { timeout: 30_000 }, () => {
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const direct = await runScenario(scenario, startSandboxFace);
      const proxied = await runThroughProxy(scenario);

      expect(proxied.report.violations.map((violation) => violation.message)).toEqual([]);
      const answered = proxied.transcript.entries.filter(
        (entry) => 'exchange' in entry && entry.exchange.includes(' /rest/v1') && entry.status !== 0,
      );
      expect(proxied.report.exchanges).toBe(answered.length);
      expect(proxied.normalised).toEqual(direct.normalised);
      expect(proxied.sent.size).toBeGreaterThan(0);
      // A connection the sandbox drops on purpose (a fault rule) has no answer on either side.
      expect(new Map(proxied.tapped)).toEqual(proxied.sent);
    });
  }
});
