import { beforeAll } from 'vitest';
import { describeReceiverScenarios } from './support/receiver-scenarios';
import { bundleWorker, launchOnWorkerd } from './support/workerd-worker';

// The bundled Worker on workerd under miniflare: run by CI's runtime step, which installs
// miniflare (vitest.workerd.config.ts), with the same scenarios as worker-on-node.test.ts.
let script: string;
beforeAll(async () => {
  script = await bundleWorker();
});

describeReceiverScenarios('workerd', () => launchOnWorkerd(script));
