import type { ScenarioContext } from './scenario-context';

/**
 * One integrator's story, written once and run on every face. Its transcript must be the same on
 * each (after normalisation); `statuses` keeps a scenario honest: the distinct statuses its
 * exchanges must show, so that one that stops reaching the service cannot pass.
 *
 * @example
 * ```ts
 * const scenario: Scenario = {
 *   name: 'lists the books',
 *   statuses: [200],
 *   run: async (context) => {
 *     const logbook = context.client(await context.account());
 *     await context.call('books.list()', () => logbook.books.list());
 *   },
 * };
 * ```
 */
export interface Scenario {
  readonly name: string;
  /** The distinct statuses of the scenario's exchanges, ascending. */
  readonly statuses: readonly number[];
  /** Requests per minute per token on both faces; the service's 60 when absent. */
  readonly rateLimit?: number;
  /** The path of a fixtures file (JSON or YAML) each face loads before the scenario runs. */
  readonly fixtures?: string;
  run(context: ScenarioContext): Promise<void>;
}
