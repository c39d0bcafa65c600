import type { FixedWindowLimiter } from '../rate-limit/fixed-window-limiter';
import type { CoreState } from '../state/core-state';
import type { AnswerCache } from './answer-cache';
import type { CoreEnv } from './core-env';

/** One core's state and the services its requests use. */
export interface CoreRuntime {
  readonly state: CoreState;
  readonly env: CoreEnv;
  readonly limiter: FixedWindowLimiter;
  /** The answers of cached routes, kept while the state's version is unchanged. */
  readonly answers: AnswerCache;
}
