import { describeReceiverScenarios } from './support/receiver-scenarios';
import { launchOnNode } from './support/node-worker';

// The Worker's Fetch handler served by node:http: what `pnpm test` runs on a fresh clone, where
// workerd is not installed. The same scenarios run on workerd in worker-on-workerd.test.ts.
describeReceiverScenarios('Node', launchOnNode);
