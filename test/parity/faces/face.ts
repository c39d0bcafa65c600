import type { CreatedAccount } from '@fflkit/sandbox-core';
import type { SandboxAccountCreate } from '@fflkit/types';

/** How a face is started; both faces take the same options, so a scenario sees one service. */
export interface FaceOptions {
  /** Requests per minute per token; the service's 60 when absent. */
  readonly rateLimit?: number | undefined;
  /**
   * The path of a fixtures file (JSON or YAML) loaded before the face answers, each face its own
   * way: the MSW mock reads it when made, the sandbox takes it through `POST /_sandbox/fixtures`.
   */
  readonly fixtures?: string | undefined;
}

/**
 * One way an integrator reaches the sandbox core: the sandbox over HTTP, or the MSW handlers
 * inside the test process. Scenarios see only this, so that one scenario runs on both.
 */
export interface Face {
  /** `sandbox` or `msw`, for messages. */
  readonly name: string;
  /** The origin, where the control API (`/_sandbox`) answers. */
  readonly origin: string;
  /** The service API's base URL: `origin + '/rest/v1'`. */
  readonly apiUrl: string;
  /** Makes an isolated account (dealer unless told otherwise) with the book `Main`, and its token. */
  createAccount(input?: SandboxAccountCreate): Promise<CreatedAccount>;
  /** Stops answering; resolves once everything the face started has ended. */
  stop(): Promise<void>;
}

/**
 * Starts a face with a fresh core, so that two faces started alike hand out the same ids.
 *
 * @example
 * ```ts
 * const face = await startSandboxFace({ rateLimit: 3 });
 * ```
 */
export type StartFace = (options: FaceOptions) => Promise<Face>;
