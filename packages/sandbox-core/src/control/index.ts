// `@fflkit/sandbox-core/control`: the typed client of the sandbox's control API, apart from the
// core so that a client (the console in a browser, `connectSandbox()`) carries none of it. It
// imports nothing but `@fflkit/types`.

// The typed client and how it sends.
export { createControlClient, fetchSend, mediaType, parseJson } from './control-client';
export type {
  ControlAnswer,
  ControlCallOptions,
  ControlClient,
  ControlClientOptions,
  ControlErrorFactory,
  ControlFailure,
  ControlMethod,
  ControlPath,
  ControlRequest,
  ControlSend,
  ControlSuccess,
  ControlSuccessAnswer,
} from './control-client';

// The calls made with an account's token.
export { createControlCalls } from './control-calls';
export type { ControlCalls, CreatedAccount, SandboxTokenCreated } from './control-calls';

// The event stream.
export { readActivityEvents, readServerSentEvents } from './event-stream';
export type { ActivityEvent, ServerSentEvent } from './event-stream';
