import { describe, expect, it } from 'vitest';
import { startMswFace } from './faces/start-msw-face';
import { startSandboxFace } from './faces/start-sandbox-face';
import { runScenario, type ScenarioRun } from './run-scenario';
import { scenarios } from './scenarios/all-scenarios';

// One set of integrator scenarios, written once against the SDK, run on the sandbox over HTTP
// and on the MSW handlers under setupServer: both faces must give the same statuses and the same
// bodies, apart from ids, tokens, secrets and times.

/** The distinct statuses of a run's exchanges, ascending. */
function statusesOf(run: ScenarioRun): number[] {
  return [...new Set(run.transcript.statuses())].sort((a, b) => a - b);
}

/** The rate-limit headers that normalisation hides must still hold sensible values. */
function expectSaneRetryHeaders(run: ScenarioRun): void {
  const nowSeconds = Date.now() / 1000;
  for (const entry of run.transcript.entries) {
    if (!('exchange' in entry) || entry.status !== 429) continue;
    expect(Number(entry.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(entry.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(Number(entry.headers['x-ratelimit-reset'])).toBeGreaterThan(nowSeconds - 60);
    expect(Number(entry.headers['x-ratelimit-reset'])).toBeLessThan(nowSeconds + 120);
  }
}

describe('the MSW handlers answer every scenario as the sandbox does', () => {
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const sandbox = await runScenario(scenario, startSandboxFace);
      const msw = await runScenario(scenario, startMswFace);

      expect(statusesOf(sandbox)).toEqual(scenario.statuses);
      expectSaneRetryHeaders(sandbox);
      expectSaneRetryHeaders(msw);
      expect(msw.normalised).toEqual(sandbox.normalised);
    });
  }
});
