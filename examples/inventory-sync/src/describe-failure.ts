import {
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
} from '@fflkit/sdk';
import { SyncStateError } from './sync-state-error';
import { UsageError } from './usage-error';

/** How the CLI reports a failure: the message for stderr and the exit code. */
export interface Failure {
  readonly message: string;
  readonly exitCode: number;
}

/**
 * Turns what a sync threw into one line that says what went wrong and what to do next, and an
 * exit code: 2 for a wrong option, 1 for anything else.
 *
 * @example
 * ```ts
 * describeFailure(error, 'http://127.0.0.1:4010/rest/v1');
 * // { message: 'the service refused the token (401): check FFLKIT_TOKEN or --token ...', exitCode: 1 }
 * ```
 */
export function describeFailure(error: unknown, baseUrl: string): Failure {
  if (error instanceof UsageError) return { message: error.message, exitCode: 2 };
  return { message: explain(error, baseUrl), exitCode: 1 };
}

function explain(error: unknown, baseUrl: string): string {
  if (error instanceof AuthenticationError) {
    return 'the service refused the token (401): check FFLKIT_TOKEN or --token; it may be mistyped, revoked, or of another service';
  }
  if (error instanceof PermissionDeniedError) {
    return `the service denied access (403: ${error.body?.message ?? 'forbidden'}): use a key with the read permission of a dealer, manufacturer or importer account`;
  }
  if (error instanceof NotFoundError) {
    return `${baseUrl} answered 404: check --base-url, which must be the API's base ending in /rest/v1`;
  }
  if (error instanceof RateLimitError) {
    return `the service's rate limit was reached (429): run again in ${error.retryAfter ?? 60} seconds; the sync resumes where it stopped`;
  }
  if (error instanceof TimeoutError) {
    return `${baseUrl} did not answer in time: check the network and run again; the sync resumes where it stopped`;
  }
  if (error instanceof ConnectionError) {
    return `cannot reach ${baseUrl}: is the service running? For the local sandbox run \`pnpm start\` in the FFLKit repository, or pass --base-url`;
  }
  if (error instanceof SyncStateError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
