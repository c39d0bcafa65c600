// The web build (export conditions `browser` and the default): the mock as on Node, with
// `fixtures` taken as an object only; a browser has no file to read, and this build imports no
// node: module. The Node build (src/index.ts) exports the same names.
import { misuseError } from './errors';
import { makeMockLogbook, type MockLogbook, type MockLogbookOptions } from './mock-logbook';

export * from './shared-exports';

/**
 * Makes a mock of the service for MSW, as on Node: handlers that answer every request to
 * `baseUrl` and to the control API (`/_sandbox`) with the sandbox core's behaviour, and captured
 * webhook deliveries. `fixtures` is an object here (import a JSON file with your bundler); a path
 * throws a `TypeError`, since only the Node build reads files.
 *
 * @example
 * ```ts
 * import { createMockLogbook, type SandboxFixtures } from '@fflkit/msw';
 * import { setupWorker } from 'msw/browser';
 *
 * const fixtures: SandboxFixtures = { accounts: [{ tokens: [{ token: 'sbx_storybook000000000000000001' }] }] };
 * const mock = createMockLogbook({ baseUrl: 'https://logbook.example.test/rest/v1', fixtures });
 * await setupWorker(...mock.handlers).start();
 * ```
 */
export function createMockLogbook(options: MockLogbookOptions): MockLogbook {
  return makeMockLogbook(options, { readFixturesFile: refuseFixturesPath });
}

function refuseFixturesPath(path: string): never {
  throw misuseError(
    `createMockLogbook(): fixtures is a path (${JSON.stringify(path)}), which only the Node build reads; in a browser, pass the fixtures object itself (import the JSON file with your bundler)`,
  );
}
