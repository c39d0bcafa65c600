import type { Scenario } from '../scenario';
import { controlScenarios } from './control-scenarios';
import { errorScenarios } from './error-scenarios';
import { faultScenarios } from './fault-scenarios';
import { fixturesScenarios } from './fixtures-scenarios';
import { listScenarios } from './list-scenarios';
import { receiptScenarios } from './receipt-scenarios';
import { webhookScenarios } from './webhook-scenarios';

/** Every parity scenario, in the order the suites run them. */
export const scenarios: readonly Scenario[] = [
  ...receiptScenarios,
  ...listScenarios,
  ...errorScenarios,
  ...webhookScenarios,
  ...controlScenarios,
  ...fixturesScenarios,
  ...faultScenarios,
];
