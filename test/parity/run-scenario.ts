import type { StartFace } from './faces/face';
import { startWebhookReceiver } from './faces/start-webhook-receiver';
import type { Scenario } from './scenario';
import { ScenarioContext } from './scenario-context';
import { normaliseTranscript } from './transcript/normalise-transcript';
import { Transcript } from './transcript/transcript';

/** What a scenario left on one face. */
export interface ScenarioRun {
  /** The transcript as recorded. */
  readonly transcript: Transcript;
  /** The transcript with what may differ between faces replaced by stand-ins. */
  readonly normalised: unknown[];
}

/**
 * Runs a scenario on a fresh face with a webhook receiver of its own, stops both, and answers
 * the transcript and its normalised form.
 *
 * @example
 * ```ts
 * const { normalised } = await runScenario(scenario, startMswFace);
 * ```
 */
export async function runScenario(scenario: Scenario, startFace: StartFace): Promise<ScenarioRun> {
  const receiver = await startWebhookReceiver();
  const face = await startFace({ rateLimit: scenario.rateLimit, fixtures: scenario.fixtures });
  const transcript = new Transcript();
  try {
    await scenario.run(new ScenarioContext(face, receiver, transcript));
  } finally {
    await face.stop();
    await receiver.close();
  }
  return {
    transcript,
    normalised: normaliseTranscript(transcript.entries, { origin: face.origin, receiver: receiver.origin }),
  };
}
