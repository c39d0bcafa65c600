// Signals while the CLI loads its program. Without a handler, Node run as a container's PID 1
// never sees SIGINT or SIGTERM (the kernel drops a signal that PID 1 does not handle), and the
// container would wait out its grace period for a SIGKILL. So the launcher handles both from its
// first line: a signal handled before the program has started exits at once, as nothing is left
// to save; one that comes while the program loads (synchronously) waits in Node's queue and
// reaches the program's own handlers, provided that they are set before these go (a signal
// queued when the last handler goes is dropped).

/** What {@link stopOnSignalsWhileLoading} needs of the process. */
export type SignalTarget = Pick<NodeJS.Process, 'on' | 'off' | 'exit'>;

/**
 * Makes SIGINT and SIGTERM exit `target` with code 0 until the returned function is called,
 * which removes those handlers: call it once the program has set its own.
 */
export function stopOnSignalsWhileLoading(target: SignalTarget = process): () => void {
  const stop = (): never => target.exit(0);
  target.on('SIGINT', stop);
  target.on('SIGTERM', stop);
  return () => {
    target.off('SIGINT', stop);
    target.off('SIGTERM', stop);
  };
}
