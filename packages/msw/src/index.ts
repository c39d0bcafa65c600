// The Node build (export condition `node`): `fixtures` may also be the path of a JSON or YAML
// file, read with node:fs when the mock is made, and the core hashes with node:crypto. The web
// build (src/web.ts) exports the same names and takes fixtures as an object only, so that
// neither node:fs nor a YAML parser reaches a browser bundle.
import { nodeHmacSha256Hex, nodeSha256Hex } from '@fflkit/sandbox-core/node-crypto';
import { readFixturesFile } from './fixtures-file';
import { makeMockLogbook, type MockLogbook, type MockLogbookOptions, type MockRuntime } from './mock-logbook';

export * from './shared-exports';

/**
 * Makes a mock of the service for MSW: handlers that answer every request to `baseUrl` and to the
 * control API (`/_sandbox`) with the sandbox core's behaviour, contract errors, rate limit and
 * per-account clock included, and captured webhook deliveries. Deliveries that are due are
 * attempted before each answer, so a test sees them as soon as its request resolves; retries fall
 * due on the account's clock (`clock.advance`). `fixtures` (an object, or the path of a JSON or
 * YAML file) is loaded before the mock is returned, so its fixed tokens work at once.
 *
 * @example
 * ```ts
 * import { createMockLogbook } from '@fflkit/msw';
 * import { setupServer } from 'msw/node';
 *
 * const mock = createMockLogbook({ baseUrl: 'https://logbook.example.test/rest/v1', fixtures: 'test/fixtures.yaml' });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * const { token } = mock.createAccount();
 * const response = await fetch('https://logbook.example.test/rest/v1/books', {
 *   headers: { authorization: `Bearer ${token}` },
 * });
 * response.status; // 200
 * ```
 */
export function createMockLogbook(options: MockLogbookOptions): MockLogbook {
  return makeMockLogbook(options, NODE_RUNTIME);
}

/**
 * Node's runtime: fixtures files from disk, and `node:crypto`'s SHA-256 and HMAC, several times
 * faster than the core's plain JavaScript ones, for the token every request is looked up by and
 * the signature of every delivery.
 */
const NODE_RUNTIME: MockRuntime = {
  readFixturesFile,
  sha256Hex: nodeSha256Hex,
  hmacSha256Hex: nodeHmacSha256Hex,
};
