import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type SignalTarget, stopOnSignalsWhileLoading } from '../../src/cli/early-stop';

/** A process that records its exit instead of exiting. */
function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: (number | string | null | undefined)[] = [];
  const target = Object.assign(emitter, {
    exit: (code?: number | string | null) => {
      exits.push(code);
      return undefined as never;
    },
  }) as unknown as SignalTarget & EventEmitter;
  return { target, exits };
}

describe('stopOnSignalsWhileLoading(target)', () => {
  it.each(['SIGTERM', 'SIGINT'])(
    'exits 0 on %s while the program loads (a container’s PID 1 would drop it)',
    (signal) => {
      const { target, exits } = fakeProcess();
      stopOnSignalsWhileLoading(target);
      target.emit(signal);
      expect(exits).toEqual([0]);
    },
  );

  it('leaves the signals to the program once handed over, with no handler of its own left', () => {
    const { target, exits } = fakeProcess();
    const handOver = stopOnSignalsWhileLoading(target);
    handOver();
    expect(target.listenerCount('SIGTERM') + target.listenerCount('SIGINT')).toBe(0);
    target.emit('SIGTERM');
    expect(exits).toEqual([]);
  });
});
