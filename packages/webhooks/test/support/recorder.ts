import type { WebhookErrorInfo } from '../../src/index';

/** Calls recorded by the tests' handlers and error reporter. */
export interface Recorder {
  readonly calls: Array<{ readonly name: string; readonly event: unknown; readonly context: unknown }>;
  readonly errors: Array<{ readonly error: unknown; readonly info: WebhookErrorInfo }>;
  /** A handler that records its calls under `name`. */
  handler(name: string): (event: unknown, context: unknown) => void;
  /** An `onError` that records what it is told. */
  readonly onError: (error: unknown, info: WebhookErrorInfo) => void;
}

export function recorder(): Recorder {
  const calls: Recorder['calls'] = [];
  const errors: Recorder['errors'] = [];
  return {
    calls,
    errors,
    handler: (name) => (event, context) => {
      calls.push({ name, event, context });
    },
    onError: (error, info) => {
      errors.push({ error, info });
    },
  };
}
